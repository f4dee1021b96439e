import Foundation
import LatchCrypto

/// The server's data directory: `latch.db`, `master.key` (seals signing keys) and `admin.token`.
/// Created mode 0700 with files 0600, so key material is private to the server's user.
public struct DataDirectory: Sendable {
    /// The directory path.
    public let path: String

    /// Opens (creating if needed) the directory.
    public init(path: String) throws {
        self.path = path
        umask(0o077)
        try FileManager.default.createDirectory(
            atPath: path, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
    }

    /// The SQLite database file.
    public var databasePath: String { path + "/latch.db" }

    /// The 32-byte master key, created on first use.
    public func masterKey() throws -> [UInt8] {
        try secret(named: "master.key", make: { SecureRandom.bytes(count: 32) })
    }

    /// The admin bearer token, created on first use.
    public func adminToken() throws -> String {
        String(decoding: try secret(named: "admin.token", make: { Array(SecureRandom.token(byteCount: 32).utf8) }), as: UTF8.self)
    }

    private func secret(named name: String, make: () -> [UInt8]) throws -> [UInt8] {
        let file = path + "/" + name
        if let data = FileManager.default.contents(atPath: file), !data.isEmpty { return Array(data) }
        let value = make()
        // A name of its own per call: racing openers (a server and an admin command, or threads) must
        // never write, link or unlink each other's temporary file.
        let temporary = file + ".tmp-\(getpid())-\(SecureRandom.hex(byteCount: 8))"
        guard FileManager.default.createFile(atPath: temporary, contents: Data(value), attributes: [.posixPermissions: 0o600])
        else { throw ConfigurationError("cannot write \(temporary)") }
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: temporary))
        try handle.synchronize()
        try handle.close()
        // link(2) never replaces an existing file: if another process won the race, use its secret.
        defer { unlink(temporary) }
        if link(temporary, file) != 0 {
            guard errno == EEXIST, let data = FileManager.default.contents(atPath: file), !data.isEmpty else {
                throw ConfigurationError("cannot create \(file)")
            }
            return Array(data)
        }
        return value
    }
}
