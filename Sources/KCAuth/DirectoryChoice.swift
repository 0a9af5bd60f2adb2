/// The profile a `.kcauth-profile` chose, and the file that chose it (for status and doctor).
public struct DirectoryChoice: Sendable, Equatable {
    public var name: String
    public var path: String
}
