import Foundation
import LatchServer
import Testing

/// The data directory's secrets are created once, even when several processes (a server and an
/// admin command) or threads open a fresh directory at the same moment.
@Suite("Data directory secrets")
struct DataDirectoryTests {
    @Test("racing first opens all get the master key and admin token that end up on disk")
    func racingFirstOpen() async throws {
        for _ in 0..<40 {
            let path = LatchdProcess.temporaryDataDirectory()
            defer { try? FileManager.default.removeItem(atPath: path) }
            let results = try await withThrowingTaskGroup(of: ([UInt8], String).self) { group in
                for _ in 0..<8 {
                    group.addTask {
                        let directory = try DataDirectory(path: path)
                        return (try directory.masterKey(), try directory.adminToken())
                    }
                }
                var all: [([UInt8], String)] = []
                for try await result in group { all.append(result) }
                return all
            }
            let onDisk = try #require(FileManager.default.contents(atPath: path + "/master.key"))
            let token = try #require(FileManager.default.contents(atPath: path + "/admin.token"))
            for (key, adminToken) in results {
                #expect(key == Array(onDisk), "a caller got a master key that is not the stored one")
                #expect(adminToken == String(decoding: token, as: UTF8.self))
            }
            #expect(onDisk.count == 32)
            let leftovers = try FileManager.default.contentsOfDirectory(atPath: path).filter { $0.contains(".tmp") }
            #expect(leftovers.isEmpty, "temporary files left behind: \(leftovers)")
        }
    }

    @Test("secrets are private to the server's user")
    func permissions() throws {
        let path = LatchdProcess.temporaryDataDirectory()
        defer { try? FileManager.default.removeItem(atPath: path) }
        let directory = try DataDirectory(path: path)
        _ = try directory.masterKey()
        _ = try directory.adminToken()
        for name in ["master.key", "admin.token"] {
            let attributes = try FileManager.default.attributesOfItem(atPath: path + "/" + name)
            let mode = try #require(attributes[.posixPermissions] as? NSNumber).intValue
            #expect(mode & 0o077 == 0, "\(name) has mode \(String(mode, radix: 8))")
        }
        let directoryMode = try #require(
            try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? NSNumber
        ).intValue
        #expect(directoryMode & 0o077 == 0)
    }
}
