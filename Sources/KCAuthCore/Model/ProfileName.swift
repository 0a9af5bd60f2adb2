import KCAuthContract

/// Profile names: the contract's rule (``ProfileNameRule``), which the front applies too.
public enum ProfileName {
    public static let defaultName = ProfileNameRule.defaultName

    public static func isValid(_ name: String) -> Bool { ProfileNameRule.isValid(name) }
}
