import KCAuthCore
import Testing
@testable import KCAuthSystem

/// HTTPS with a private CA made by the `openssl` CLI and served by python's `ssl`.
@Suite("CurlTransport with a private CA")
struct CurlPrivateCATests {
    @Test("untrusted without --ca-file, trusted with it")
    func privateCA() throws {
        let dir = try NetTempDir()
        defer { dir.remove() }
        try makeCertificates(in: dir)
        let server = try NetHTTPServer(certificate: dir.file("server.pem"), key: dir.file("server.key"))
        defer { server.stop() }
        let url = "https://127.0.0.1:\(server.port)/hello"

        let error = try #require(throws: KCAuthError.self) {
            try CurlTransport().send(HTTPRequest(method: .get, url: WireText(url)))
        }
        #expect(error.code == .network)
        #expect(error.message == "TLS certificate of 127.0.0.1 is not trusted" && error.remedy == .checkCA(host: "127.0.0.1", caFile: nil))
        #expect(error.cause?.isEmpty == false)

        let response = try CurlTransport(caFile: dir.file("ca.pem")).send(HTTPRequest(method: .get, url: WireText(url)))
        #expect(response.status == 200)
        #expect(response.body == Array("hello world".utf8))
    }

    @Test("a missing CA file is a configuration error")
    func missingCAFile() throws {
        let dir = try NetTempDir()
        defer { dir.remove() }
        try makeCertificates(in: dir)
        let server = try NetHTTPServer(certificate: dir.file("server.pem"), key: dir.file("server.key"))
        defer { server.stop() }
        let error = try #require(throws: KCAuthError.self) {
            try CurlTransport(caFile: dir.file("missing.pem"))
                .send(HTTPRequest(method: .get, url: "https://127.0.0.1:\(server.port)/hello"))
        }
        #expect(error.code == .configuration)
        #expect(error.message.contains("missing.pem"))
    }

    private func makeCertificates(in dir: NetTempDir) throws {
        try dir.write("server.ext", """
            subjectAltName = IP:127.0.0.1
            basicConstraints = CA:FALSE
            extendedKeyUsage = serverAuth

            """)
        let ec = ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes"]
        let steps: [[String]] = [
            ["openssl", "req", "-x509"] + ec + ["-keyout", dir.file("ca.key"), "-out", dir.file("ca.pem"),
             "-days", "2", "-subj", "/CN=kcauth test CA"],
            ["openssl", "req"] + ec + ["-keyout", dir.file("server.key"), "-out", dir.file("server.csr"),
             "-subj", "/CN=127.0.0.1"],
            ["openssl", "x509", "-req", "-in", dir.file("server.csr"), "-CA", dir.file("ca.pem"),
             "-CAkey", dir.file("ca.key"), "-CAcreateserial", "-out", dir.file("server.pem"),
             "-days", "2", "-extfile", dir.file("server.ext")],
        ]
        for step in steps {
            let status = try NetChildProcess.run(step)
            guard status == 0 else { throw NetTestError("openssl failed (\(status)): \(step[1])") }
        }
    }
}
