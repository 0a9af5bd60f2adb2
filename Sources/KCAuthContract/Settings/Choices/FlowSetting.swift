/// A `flow` setting (an option, `KCAUTH_FLOW`, the profile's `flow`): a flow, or `auto` to let
/// kcauth choose. The words are the setting's (``SettingsCatalogue/flow``).
public enum FlowSetting: String, Sendable, CaseIterable {
    case auto, browser, device
}
