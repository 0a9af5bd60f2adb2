/// The front's own error lines go to file descriptor 2 (the full program has its console).
enum StandardError {
    static func write(_ text: String) { StandardOutput.write(text, to: 2) }
}
