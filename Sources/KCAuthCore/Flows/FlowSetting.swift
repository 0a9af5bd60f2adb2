/// A `flow` setting (an option or `KCAUTH_FLOW`): a flow, or `auto` to let kcauth choose.
public enum FlowSetting: String, Sendable, CaseIterable {
    case auto, browser, device

    public var flow: LoginFlow? { LoginFlow(rawValue: rawValue) }
}
