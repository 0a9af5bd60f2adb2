/// Numbers both programs must agree on.
public enum TokenDefaults {
    /// `kcauth token`'s default `--min-valid`: a token that expires sooner is refreshed first.
    public static let minValid: Double = 30
    /// The range `--min-valid` accepts (seconds).
    public static let minValidRange: ClosedRange<Double> = 0...86_400
}
