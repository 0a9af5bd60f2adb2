/// The flow a `flow` setting (the contract's ``FlowSetting``) names; nil for `auto`.
extension FlowSetting {
    public var flow: LoginFlow? {
        switch self {
        case .auto: nil
        case .browser: .browser
        case .device: .device
        }
    }
}
