import Foundation
import LatchChildProcess
import LatchLocking
import Testing

@testable import Latch

@Suite("FileCredentialStore across processes")
struct FileCredentialStoreProcessTests {
    /// The `latch-store-fixture` executable, built next to the test binary.
    static func fixtureURL() -> URL? {
        var directories = [URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath().deletingLastPathComponent()]
        for bundle in Bundle.allBundles where bundle.bundlePath.hasSuffix(".xctest") {
            directories.append(bundle.bundleURL.deletingLastPathComponent())
        }
        return directories.map { $0.appendingPathComponent("latch-store-fixture") }
            .first { FileManager.default.isExecutableFile(atPath: $0.path) }
    }

    static func run(_ executable: URL, _ arguments: [String]) async throws -> (status: Int32, stderr: String) {
        let errors = Pipe()
        let status: Int32 = try await withCheckedThrowingContinuation { continuation in
            do {
                _ = try ChildProcess(
                    executable: executable.path, arguments: arguments, environment: ProcessInfo.processInfo.environment,
                    standardInput: .null, standardOutput: .descriptor(STDOUT_FILENO),
                    standardError: .descriptor(errors.fileHandleForWriting.fileDescriptor)
                ) { continuation.resume(returning: $0.terminationStatus) }
            } catch {
                continuation.resume(throwing: error)
            }
        }
        try errors.fileHandleForWriting.close()
        let text = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        return (status, text)
    }

    @Test("two processes doing N read-modify-writes each under the lock reach 2N")
    func lockExcludesProcesses() async throws {
        let fixture = try #require(
            Self.fixtureURL(), "latch-store-fixture is not built; add its executableTarget to Package.swift")
        let directory = try StoreTestDirectory()
        defer { directory.remove() }
        let path = directory.credentialsPath
        let perProcess = 60
        async let first = Self.run(fixture, ["increment", path, String(perProcess)])
        async let second = Self.run(fixture, ["increment", path, String(perProcess)])
        let results = try await [first, second]
        for result in results { #expect(result.status == 0, "\(result.stderr)") }
        #expect(storeTestCounter(try await FileCredentialStore(path: path).read()) == 2 * perProcess)
    }
}
