// swift-tools-version:6.0
import PackageDescription

/// Settings every Swift target shares: Swift 6 language mode, explicit existentials, and members
/// visible only through modules a file imports itself (MemberImportVisibility).
let strictSettings: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("MemberImportVisibility"),
]

let package = Package(
    name: "Latch",
    platforms: [.macOS(.v14), .iOS(.v17)],
    products: [
        .library(name: "LatchWire", targets: ["LatchWire"]),
        .library(name: "LatchServer", targets: ["LatchServer"]),
        .library(name: "LatchTesting", targets: ["LatchTesting"]),
        .library(name: "Latch", targets: ["Latch"]),
        .library(name: "LatchObservation", targets: ["LatchObservation"]),
        .library(name: "LatchSDKTesting", targets: ["LatchSDKTesting"]),
        .library(name: "LatchCurl", targets: ["LatchCurl"]),
        .executable(name: "latch", targets: ["latch"]),
        .executable(name: "latchd", targets: ["latchd"]),
    ],
    targets: [
        // MARK: - C libraries from Debian, one system-library target each
        .systemLibrary(
            name: "CMicroHTTPD", pkgConfig: "libmicrohttpd",
            providers: [.apt(["libmicrohttpd-dev"])]),
        .systemLibrary(
            name: "CSQLite", pkgConfig: "sqlite3",
            providers: [.apt(["libsqlite3-dev"])]),
        .systemLibrary(
            name: "CPQ", pkgConfig: "libpq",
            providers: [.apt(["libpq-dev"])]),
        .systemLibrary(
            name: "CCrypto", pkgConfig: "libcrypto",
            providers: [.apt(["libssl-dev"])]),
        .systemLibrary(
            name: "CArgon2", pkgConfig: "libargon2",
            providers: [.apt(["libargon2-dev"])]),
        .systemLibrary(
            name: "CCurl", pkgConfig: "libcurl",
            providers: [.apt(["libcurl4-openssl-dev"])]),

        // MARK: - Wire vocabulary shared by server and SDK
        .target(name: "LatchWire", swiftSettings: strictSettings),
        // The one lock box every module uses: Synchronization's Mutex and Atomic need macOS 15 and
        // iOS 18, newer than the platforms declared above.
        .target(name: "LatchLocking", swiftSettings: strictSettings),
        // Child processes for the test suites (posix_spawn); not part of the SDK.
        .target(name: "LatchChildProcess", dependencies: ["LatchLocking"], swiftSettings: strictSettings),

        // MARK: - The SDK and its command-line client (Foundation only, so it builds for Apple platforms)
        // On Linux the SDK digests with libcrypto (LatchCrypto); on Apple platforms with CryptoKit.
        .target(
            name: "Latch",
            dependencies: ["LatchWire", "LatchLocking", .target(name: "LatchCrypto", condition: .when(platforms: [.linux]))],
            swiftSettings: strictSettings),
        // An @Observable auth-state model for SwiftUI, apart so the core needs only Foundation.
        .target(name: "LatchObservation", dependencies: ["Latch"], swiftSettings: strictSettings),
        // Test support for apps that needs no server: a scripted transport and preview values.
        .target(name: "LatchSDKTesting", dependencies: ["Latch", "LatchLocking"], swiftSettings: strictSettings),
        .executableTarget(
            name: "latch", dependencies: ["Latch", .target(name: "LatchCurl", condition: .when(platforms: [.linux]))],
            swiftSettings: strictSettings),
        .executableTarget(
            name: "latch-bench", dependencies: ["Latch"], path: "Benchmarks/latch-bench", swiftSettings: strictSettings),
        .executableTarget(
            name: "latch-store-fixture", dependencies: ["Latch"], path: "Tests/Fixtures/latch-store-fixture",
            swiftSettings: strictSettings),

        // MARK: - HTTP client over libcurl: the only code touching libcurl. The CLI uses it on Linux to
        // trust a CA file, which Foundation's URLSession there cannot.
        .target(name: "LatchCurl", dependencies: ["CCurl", "LatchLocking"], swiftSettings: strictSettings),

        // MARK: - Server layers: one wrapper per C library, then the server
        .target(name: "LatchHTTP", dependencies: ["CMicroHTTPD", "LatchLocking"], swiftSettings: strictSettings),
        .target(name: "LatchSQLite", dependencies: ["CSQLite", "LatchLocking"], swiftSettings: strictSettings),
        .target(name: "LatchPostgres", dependencies: ["CPQ", "LatchLocking"], swiftSettings: strictSettings),
        .target(
            name: "LatchCrypto", dependencies: ["CCrypto", "CArgon2", "LatchWire", "LatchLocking"],
            swiftSettings: strictSettings),
        .target(
            name: "LatchServer",
            dependencies: [
                "LatchWire", "LatchHTTP", "LatchSQLite", "LatchPostgres", "LatchCrypto", "LatchCurl", "LatchLocking",
            ],
            swiftSettings: strictSettings),
        .target(
            name: "LatchTesting", dependencies: ["Latch", "LatchServer", "LatchHTTP", "LatchPostgres", "LatchLocking"],
            swiftSettings: strictSettings),
        .executableTarget(name: "latchd", dependencies: ["LatchServer"], swiftSettings: strictSettings),

        // MARK: - Tests
        .testTarget(
            name: "LatchHTTPTests", dependencies: ["LatchHTTP", "LatchLocking", "LatchChildProcess"],
            swiftSettings: strictSettings),
        .testTarget(name: "LatchSQLiteTests", dependencies: ["LatchSQLite"], swiftSettings: strictSettings),
        .testTarget(
            name: "LatchCryptoTests", dependencies: ["LatchCrypto", "LatchLocking", "LatchChildProcess"],
            swiftSettings: strictSettings),
        .testTarget(
            name: "LatchCurlTests", dependencies: ["LatchCurl", "LatchHTTP", "LatchCrypto", "LatchLocking"],
            swiftSettings: strictSettings),
        .testTarget(
            name: "LatchTests",
            dependencies: [
                "Latch", "LatchObservation", "LatchTesting", "LatchServer", "LatchSDKTesting", "LatchLocking",
                "LatchChildProcess",
                .target(name: "LatchCurl", condition: .when(platforms: [.linux])),
            ],
            swiftSettings: strictSettings),
        .testTarget(
            name: "LatchServerTests",
            dependencies: [
                "LatchServer", "LatchTesting", "LatchSDKTesting", "LatchLocking", "LatchChildProcess", "LatchPostgres",
            ],
            swiftSettings: strictSettings),
    ],
    swiftLanguageModes: [.v6]
)
