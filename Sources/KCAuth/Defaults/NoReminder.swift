import KCAuthCore

/// No reminders (tests, and programs that build their own adapters).
public struct NoReminder: SignInReminder {
    public init() {}
    public func remind(profile: String) {}
}
