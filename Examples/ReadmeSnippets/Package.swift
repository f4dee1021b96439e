// swift-tools-version:6.0
import PackageDescription

/// The README's Swift examples, compiled as an app would compile them: in a package of its own that
/// depends on Latch by path, with the strict settings apps are encouraged to use and warnings as
/// errors. `scripts/readme-snippets.sh` writes each ```swift block of README.md into a file here
/// (blocks that import Testing into the test target) and builds and runs this package.
let strictSettings: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("MemberImportVisibility"),
    .unsafeFlags(["-warnings-as-errors"]),
]

let package = Package(
    name: "ReadmeSnippets",
    platforms: [.macOS(.v14), .iOS(.v17)],
    dependencies: [.package(name: "Latch", path: "../..")],
    targets: [
        .target(
            name: "ReadmeSnippets", dependencies: [.product(name: "Latch", package: "Latch")],
            swiftSettings: strictSettings),
        .testTarget(
            name: "ReadmeSnippetsTests",
            dependencies: [
                .product(name: "Latch", package: "Latch"), .product(name: "LatchTesting", package: "Latch"),
                .product(name: "LatchSDKTesting", package: "Latch"),
            ],
            swiftSettings: strictSettings),
    ],
    swiftLanguageModes: [.v6]
)
