#if canImport(Glibc)
import Glibc
#endif
@testable import KCAuthContract
import Testing

/// The trace's line layout and its file, which both programs share (the front writes its line,
/// `kcauth-full` appends the rest).
@Suite struct TraceTests {
    static let fields = [TraceLine.Member("method", .text("POST")), TraceLine.Member("status", .number(200)),
                         TraceLine.Member("ms", .number(12.5)), TraceLine.Member("why", .text("valid for less than 30 s")),
                         TraceLine.Member("form", .object([TraceLine.Member("grant_type", .text("refresh_token"))])),
                         TraceLine.Member("options", .list([.text("--profile"), .bool(true)]))]

    @Test func aTextLineIsTimeElapsedEventAndFields() {
        let line = TraceLine.render(.text, time: 1_772_356_443.5123, elapsed: 0.0384, event: "http.response", fields: Self.fields)
        #expect(line == "2026-03-01T09:14:03.512Z +38ms http.response method=POST status=200 ms=12.5 why=\"valid for less than 30 s\" "
                + "form={grant_type=refresh_token} options=[--profile true]\n")
    }

    @Test func aJSONLineIsOneObject() {
        let line = TraceLine.render(.json, time: 0, elapsed: 1, event: "e", fields: Self.fields)
        #expect(line == #"{"time":"1970-01-01T00:00:00.000Z","elapsed_ms":1000,"event":"e","method":"POST","status":200,"ms":12.5,"#
                + #""why":"valid for less than 30 s","form":{"grant_type":"refresh_token"},"options":["--profile",true]}"# + "\n")
    }

    /// Control characters (a provider's newline, an escape sequence) are escaped in both forms.
    @Test(arguments: [TraceMode.text, .json])
    func controlCharactersStayInsideTheirLine(_ mode: TraceMode) {
        let line = TraceLine.render(mode, time: 0, elapsed: 0, event: "e", fields: [TraceLine.Member("x", .text("a\nb\u{1B}[31m\u{2028}c\""))])
        #expect(line.split(separator: "\n").count == 1 && line.hasSuffix("\n"))
        #expect(line.contains(#""a\nb\u001b[31m\u2028c\"""#), "\(line)")
    }

    @Test func numbersAndTimes() {
        #expect(TraceLine.number(3) == "3" && TraceLine.number(-2) == "-2" && TraceLine.number(0.25) == "0.25" && TraceLine.number(1.0005) == "1.001")
        #expect(TraceLine.timestamp(0.999) == "1970-01-01T00:00:00.999Z" && TraceLine.timestamp(.nan) == "1970-01-01T00:00:00.000Z")
    }

    @Test func theSettingsWords() {
        #expect(TraceMode.setting(environment: nil) == .off && TraceMode.setting(environment: "") == .off)
        #expect(TraceMode.setting(environment: "0") == .off && TraceMode.setting(environment: "OFF") == .off)
        #expect(TraceMode.setting(environment: "1") == .on(.text) && TraceMode.setting(environment: "JSON") == .on(.json))
        #expect(TraceMode.setting(environment: "yes please") == .refused)
        #expect(TraceMode.setting(flag: nil) == .on(.text) && TraceMode.setting(flag: "json") == .on(.json))
        #expect(TraceMode.setting(flag: "1") == .refused && TraceMode.setting(flag: "JSON") == .refused)
    }

    // MARK: KCAUTH_DEBUG_FILE

    final class Directory {
        let path: String
        init() {
            var template = Array("/tmp/kcauth-trace-test.XXXXXX".utf8CString)
            path = String(cString: mkdtemp(&template)!)
        }
        deinit { _ = system("rm -rf '\(path)'") }
        func read(_ name: String) -> String {
            guard let f = fopen(path + "/" + name, "r") else { return "" }
            defer { fclose(f) }
            var out = ""
            var c = fgetc(f)
            while c != EOF { out.unicodeScalars.append(Unicode.Scalar(UInt8(c))); c = fgetc(f) }
            return out
        }
    }

    @Test func theFileIsCreatedPrivateAndAppendedTo() throws {
        let dir = Directory()
        let path = dir.path + "/trace.log"
        let previous = umask(0)
        defer { umask(previous) }
        for event in ["first", "second"] {
            guard case .success(let fd) = TraceFile.open(path) else { Issue.record("not opened"); return }
            TraceWriter(fd: fd, mode: .text).write(event: event, fields: [])
            #expect(fcntl(fd, F_GETFD) & FD_CLOEXEC != 0, "no child inherits it")
            close(fd)
        }
        var info = stat()
        #expect(stat(path, &info) == 0 && info.st_mode & 0o777 == 0o600)
        let lines = dir.read("trace.log").split(separator: "\n")
        #expect(lines.count == 2 && lines[0].hasSuffix(" first") && lines[1].hasSuffix(" second"))
    }

    @Test func aLinkIsRefusedAndItsTargetUntouched() {
        let dir = Directory()
        let target = dir.path + "/target"
        let fd = open(target, O_WRONLY | O_CREAT, 0o600)
        close(fd)
        symlink(target, dir.path + "/link")
        #expect(TraceFile.open(dir.path + "/link") == .failure(.symbolicLink))
        #expect(dir.read("target").isEmpty)
    }

    @Test func aFileOthersMayReadOrAnotherUsersFileIsRefused() {
        let dir = Directory()
        let open644 = dir.path + "/shared"
        close(open(open644, O_WRONLY | O_CREAT, 0o644))
        chmod(open644, 0o644)
        #expect(TraceFile.open(open644) == .failure(.accessibleToOthers(mode: 0o644)))
        let mine = dir.path + "/mine"
        close(open(mine, O_WRONLY | O_CREAT, 0o600))
        #expect(TraceFile.open(mine, euid: geteuid() + 1) == .failure(.ownedByAnotherUser(uid: UInt32(geteuid()))))
        #expect(TraceFile.open(dir.path) == .failure(.failed(errno: EISDIR)))
    }
}
