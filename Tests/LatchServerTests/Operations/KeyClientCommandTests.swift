import Foundation
import LatchCrypto
import LatchServer
import Testing

/// `latchd client create --jwks` and `latchd client set-jwks`: confidential clients that
/// authenticate with `private_key_jwt` (OpenID Connect Core § 9), with no secret.
@Suite("latchd client create --jwks", .serialized)
struct KeyClientCommandTests {
    /// A file holding `text` in `directory`.
    private static func file(_ text: String, in directory: String, named name: String) throws -> String {
        let path = (directory as NSString).appendingPathComponent(name)
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        return path
    }

    /// A new data directory, and a directory for the JWKS files.
    private static func directories() throws -> (data: String, files: String) {
        let files = FileManager.default.temporaryDirectory.appendingPathComponent("jwks-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: files, withIntermediateDirectories: true)
        return (LatchdProcess.temporaryDataDirectory(), files)
    }

    private static func jwks(_ keys: [SigningKey]) -> String {
        String(decoding: try! JSONEncoder().encode(JWKSet(keys: keys.map(\.publicJWK))), as: UTF8.self)
    }

    @Test("creates a confidential client with keys and prints no secret; set-jwks replaces them")
    func create() throws {
        let (directory, files) = try Self.directories()
        defer { [directory, files].forEach { try? FileManager.default.removeItem(atPath: $0) } }
        let data = ["--data-dir", directory]
        let rsa = try SigningKey.generate(.rs256, id: "k1")
        let ec = try SigningKey.generate(.es256, id: "k2")
        let first = try Self.file(Self.jwks([rsa, ec]), in: files, named: "first.json")
        let second = try Self.file(Self.jwks([ec]), in: files, named: "second.json")

        #expect(try LatchdRun(["tenant", "create", "acme"] + data).status == 0)
        let created = try LatchdRun(
            ["client", "create", "--tenant", "acme", "--id", "svc", "--jwks", first, "--scope", "orders.read"] + data)
        #expect(created.status == 0, "\(created.stderr)")
        #expect(created.stdout.contains("created confidential client svc in tenant acme"), "\(created.stdout)")
        #expect(created.stdout.contains("authenticates with private_key_jwt: 2 key(s) (ES256, RS256)"), "\(created.stdout)")
        #expect(!created.stdout.contains("secret"), "\(created.stdout)")
        let listed = try LatchdRun(["client", "list", "--tenant", "acme"] + data)
        #expect(listed.stdout.contains("svc\tconfidential"), "\(listed.stdout)")

        let replaced = try LatchdRun(["client", "set-jwks", "--tenant", "acme", "--id", "svc", "--jwks", second] + data)
        #expect(replaced.status == 0, "\(replaced.stderr)")
        #expect(replaced.stdout.contains("replaced the keys of confidential client svc in tenant acme"), "\(replaced.stdout)")
        #expect(replaced.stdout.contains("1 key(s) (ES256)"), "\(replaced.stdout)")

        let store = try SQLiteStore(path: directory + "/latch.db")
        defer { store.close() }
        let stored = try store.read { tx throws -> (Client?, ClientKeys?) in
            let tenant = try #require(try tx.tenant(named: "acme"))
            return (try tx.client(id: "svc", tenantID: tenant.id), try tx.clientKeys(clientID: "svc", tenantID: tenant.id))
        }
        #expect(stored.0?.isPublic == false)
        #expect(stored.0?.secretHash == nil)
        let keys = try ClientKeySet(try #require(stored.1?.jwks))
        #expect(keys.keys.map(\.id) == ["k2"])
        #expect(keys.key(for: "k2")?.publicJWK.x == ec.publicJWK.x)
    }

    @Test("an unusable JWKS file, --confidential with --jwks, and public or unknown clients are refused")
    func refusals() throws {
        let (directory, files) = try Self.directories()
        defer { [directory, files].forEach { try? FileManager.default.removeItem(atPath: $0) } }
        let data = ["--data-dir", directory]
        let rsa = try SigningKey.generate(.rs256, id: "k1")
        let good = try Self.file(Self.jwks([rsa]), in: files, named: "good.json")
        // A private key is never stored (the rules themselves: ClientKeySetTests).
        let n = rsa.publicJWK.n ?? ""
        let secret = try Self.file(
            #"{"keys":[{"kty":"RSA","kid":"k1","n":"\#(n)","e":"AQAB","d":"AQAB"}]}"#, in: files, named: "private.json")
        let refused = try LatchdRun(["client", "create", "--id", "svc", "--jwks", secret] + data)
        #expect(refused.status == 2, "\(refused.stdout) \(refused.stderr)")
        #expect(refused.stderr.contains("is not a JWKS document"), "\(refused.stderr)")
        let both = try LatchdRun(["client", "create", "--id", "svc", "--confidential", "--jwks", good] + data)
        #expect(both.status == 2, "\(both.stderr)")
        #expect(both.stderr.contains("not both"), "\(both.stderr)")

        #expect(try LatchdRun(["tenant", "create", "acme"] + data).status == 0)
        #expect(try LatchdRun(["client", "create", "--tenant", "acme", "--id", "app"] + data).status == 0)
        let publicClient = try LatchdRun(["client", "set-jwks", "--tenant", "acme", "--id", "app", "--jwks", good] + data)
        #expect(publicClient.status == 1, "\(publicClient.stderr)")
        #expect(try LatchdRun(["client", "set-jwks", "--tenant", "acme", "--id", "app"] + data).status == 2)
        let help = try LatchdRun(["help", "client", "create"])
        #expect(help.stdout.contains("--jwks FILE"), "\(help.stdout)")
    }
}
