// swift-tools-version:6.0
// kcauth: sign in to Keycloak / OpenID Connect providers from the Linux command line.
//
// Layout (see README "Architecture"):
//   C system modules   CLibSecret, COpenSSL, CCurl, CQREncode, CZlib – each imported by exactly one Swift module
//   KCAuthContract     Glibc only: what the front and kcauth-full must agree on (settings catalogue,
//                      paths, file rules, cache file, session marks, the cache decision)
//   KCAuthCrypto       OpenSSL: SHA-256, randomness, JWS verification (pure computation)
//   KCAuthCore         OAuth 2.0 / OIDC mechanisms over small Sendable ports; no sockets, no processes,
//                      no words of the command line (typed facts and remedies instead)
//   KCAuthSystem       the real adapters: libcurl, libsecret, libqrencode, loopback listener, browser, files
//   KCAuth             the library product: one use case per verb, the composition root (KCAuthContext over
//                      Adapters, the only place that knows the real adapters) and TokenProvider
//   KCAuthCLI          hand-rolled argument parser, command table, presenters and every word for people;
//                      it does not import KCAuthSystem
//   KCAuthTestSupport  fakes of every adapter and fixtures, for the test targets (not shipped)
//   KCAuthFastPath     the warm-cache `kcauth token` with Glibc only, and the hand-off to kcauth-full
//   kcauth             the shipped command: a small static executable, KCAuthFastPath only; execs
//                      kcauth-full for everything the fast path declines (docs/performance.md)
//   kcauth-full        the full program (KCAuthCLI), dynamically linked; installed in libexec/kcauth
//   KCAuthDocGen       build time only: the man page generator (kcauth-docgen), not in the product
import PackageDescription

let swift6: [SwiftSetting] = [.swiftLanguageMode(.v6)]
/// This file's directory: linker flags that name a file of the package need an absolute path.
let packageDirectory = String(#filePath.dropLast("/Package.swift".count))

let package = Package(
    name: "kcauth",
    products: [
        .executable(name: "kcauth", targets: ["kcauth"]),
        .executable(name: "kcauth-full", targets: ["kcauth-full"]),
        // For Swift tools that want the CLI's session: same store, same cross-process lock.
        .library(name: "KCAuth", targets: ["KCAuth"]),
    ],
    targets: [
        // libsecret, libcurl, libcrypto, libqrencode and zlib are dlopen()ed on first use, so `kcauth token`
        // starts without loading them (each module's header says more; docs/performance.md has numbers).
        .target(name: "CLibSecret", path: "Sources/CLibSecret"),
        .target(name: "COpenSSL", path: "Sources/COpenSSL"),  // libcrypto only, no TLS; headers: libssl-dev
        .target(name: "CCurl", path: "Sources/CCurl"),  // headers: libcurl4-openssl-dev
        .target(name: "CQREncode", path: "Sources/CQREncode"),  // headers: libqrencode-dev
        .target(name: "CKeyring", path: "Sources/CKeyring"),  // add_key(2)/keyctl(2): syscall(2) is variadic
        .target(name: "CZlib", path: "Sources/CZlib"),  // doctor --bundle's gzip; headers: zlib1g-dev

        .target(name: "KCAuthCrypto", dependencies: ["COpenSSL"], swiftSettings: swift6),
        // KCAuthContract (Glibc only, at the bottom): what the front and the full program must
        // agree on — the settings catalogue and its checks, paths, file rules, the cache file,
        // session marks and the "may the cache answer?" decision (one contract, one answer).
        .target(name: "KCAuthContract", swiftSettings: swift6),
        .target(name: "KCAuthCore", dependencies: ["KCAuthCrypto", "KCAuthContract"], swiftSettings: swift6),
        .target(name: "KCAuthSystem", dependencies: ["KCAuthCore", "KCAuthContract", "CLibSecret", "CCurl", "CQREncode", "CKeyring", "CZlib"], swiftSettings: swift6),
        .target(name: "KCAuth", dependencies: ["KCAuthCore", "KCAuthSystem"], swiftSettings: swift6),
        .target(name: "KCAuthCLI", dependencies: ["KCAuth", "KCAuthContract", "KCAuthCore"], swiftSettings: swift6),
        // Fakes and fixtures shared by every test target (not a product: never shipped).
        .target(name: "KCAuthTestSupport", dependencies: ["KCAuth", "KCAuthCore", "KCAuthCLI"], swiftSettings: swift6),
        .executableTarget(name: "KCAuthExample", dependencies: ["KCAuth"], path: "Examples/KCAuthExample", swiftSettings: swift6),
        // The warm-cache `kcauth token`, Glibc only: no Foundation, no JSON decoder
        // (docs/performance.md).
        .target(name: "KCAuthFastPath", dependencies: ["KCAuthContract"], swiftSettings: swift6),
        // Static: no dynamic loader, no relocation of the Swift runtime at start (≈2.2 M of a warm
        // `token`'s 2.9 M instructions were that). It dlopens nothing: a static glibc program cannot
        // safely dlopen libsecret/GLib (docs/performance.md §3), so every other case execs kcauth-full.
        // Linked by lld with the hot sections first (symbol-order.txt, made by scripts/front-order)
        // and the start-up stubs beside them (front-layout.ld): a warm token touches ≈0.25 MB of
        // 4.5 MB of code, and the kernel maps file pages 64 KiB around each touch (large page cache
        // folios whole), so packing them is most of the front's peak RSS (docs/performance.md §4).
        .executableTarget(name: "kcauth", dependencies: ["KCAuthFastPath"], exclude: ["symbol-order.txt", "front-layout.ld"],
                          swiftSettings: swift6,
                          linkerSettings: [.unsafeFlags(["-static-executable", "-use-ld=lld",
                                                         "-Xlinker", "--symbol-ordering-file=\(packageDirectory)/Sources/kcauth/symbol-order.txt",
                                                         "-Xlinker", "--no-warn-symbol-ordering",
                                                         "-Xlinker", "--script=\(packageDirectory)/Sources/kcauth/front-layout.ld"])]),
        .executableTarget(name: "kcauth-full", dependencies: ["KCAuthCLI"], swiftSettings: swift6),
        // Build tools: scripts/generate-docs runs kcauth-docgen; no product contains them.
        .target(name: "KCAuthDocGen", dependencies: ["KCAuthCLI", "KCAuthCore", "KCAuthContract"], swiftSettings: swift6),
        .executableTarget(name: "kcauth-docgen", dependencies: ["KCAuthDocGen", "KCAuthCLI"], swiftSettings: swift6),

        .testTarget(name: "KCAuthCryptoTests", dependencies: ["KCAuthCrypto"], swiftSettings: swift6),
        .testTarget(name: "KCAuthCoreTests", dependencies: ["KCAuthCore", "KCAuthContract", "KCAuthTestSupport"], swiftSettings: swift6),
        .testTarget(name: "KCAuthSystemTests", dependencies: ["KCAuthSystem"], swiftSettings: swift6),
        .testTarget(name: "KCAuthCLITests", dependencies: ["KCAuthCLI", "KCAuthFastPath", "KCAuthTestSupport"], swiftSettings: swift6),
        .testTarget(name: "KCAuthTests", dependencies: ["KCAuth", "KCAuthCore", "KCAuthContract", "KCAuthTestSupport"], swiftSettings: swift6),
        .testTarget(name: "KCAuthFastPathTests", dependencies: ["KCAuthFastPath", "KCAuthContract"], swiftSettings: swift6),
        .testTarget(name: "KCAuthContractTests", dependencies: ["KCAuthContract"], swiftSettings: swift6),
        .testTarget(name: "KCAuthDocGenTests", dependencies: ["KCAuthDocGen", "KCAuthCLI", "KCAuthContract", "KCAuthTestSupport"], swiftSettings: swift6),
    ]
)
