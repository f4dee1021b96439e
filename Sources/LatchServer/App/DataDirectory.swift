import Foundation
import LatchCrypto

/// The server's data directory: `latch.db`, `master.key` (seals signing keys, and outbox bodies
/// through a key derived from it) and `admin.token`.
/// Created mode 0700 with files 0600, so key material is private to the server's user.
public struct DataDirectory: Sendable {
    /// The directory path.
    public let path: String

    /// Opens (creating if needed, mode 0700) the directory.
    /// - Throws: ``ConfigurationError`` when the directory, or a secret in it (`master.key`,
    ///   `admin.token`, the development CA's and server's keys), is accessible by group or others:
    ///   anyone who can read them can sign tokens or act as the administrator.
    public init(path: String) throws {
        self.path = path
        umask(0o077)
        try FileManager.default.createDirectory(
            atPath: path, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        try Self.refuseShared(path, what: "data directory", fix: "chmod 700")
        for secret in ["master.key", "admin.token", "dev-ca.key", "dev-server.key"] {
            try Self.refuseShared(path + "/" + secret, what: "secret", fix: "chmod 600")
        }
    }

    /// Throws when `file` exists with any permission bit for group or others.
    private static func refuseShared(_ file: String, what: String, fix: String) throws {
        var status = stat()
        guard stat(file, &status) == 0 else { return }
        let mode = Int(status.st_mode) & 0o777
        guard mode & 0o077 == 0 else {
            throw ConfigurationError(
                "\(what) \(file) is accessible by group or others (mode \(String(mode, radix: 8))); "
                    + "run `\(fix) \(file)` and start again")
        }
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
