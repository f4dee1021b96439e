import Foundation
import LatchServer
import LatchTesting
import Testing

/// Accounts whose password hash was imported (Firebase scrypt, bcrypt, PBKDF2-SHA256,
/// HMAC-SHA256) sign in with native auth and with Identity Toolkit `accounts:signInWithPassword`
/// (reference/firebase-auth-protocol.md), are rehashed to Argon2id by that sign-in, and fail like
/// any wrong password otherwise.
@Suite("Firebase: imported password hashes")
struct FirebaseImportedPasswordTests {
    static let password = ImportedPasswordHashTests.password
    static let signIn = FirebaseClient.v1 + "accounts:signInWithPassword"

    struct Kind: Sendable, CustomTestStringConvertible {
        let name: String
        let encoded: String
        var testDescription: String { name }
    }

    static let kinds: [Kind] = {
        (try? ImportedPasswordHashTests.imports())?.map { Kind(name: $0.name, encoded: $0.hash.encoded) } ?? []
    }()

    /// A user of the default tenant whose stored hash is `encoded`.
    static func user(_ server: LatchTestServer, email: String, hash encoded: String) throws -> User {
        var user = try server.createUser(email: email, password: nil)
        user.passwordHash = encoded
        let stored = user
        try server.app.services.store.write { try $0.update(stored) }
        return user
    }

    static func stored(_ server: LatchTestServer, _ user: User) throws -> User {
        try #require(try server.app.services.store.read { try $0.user(id: user.id, tenantID: user.tenantID) })
    }

    private func expectError(_ reply: WireResponse, _ message: String, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(reply.status == 400, sourceLocation: sourceLocation)
        #expect(
            String(decoding: reply.body, as: UTF8.self) == FirebaseClient.errorBody(message), sourceLocation: sourceLocation)
    }

    @Test("native auth: the imported password signs in and the stored hash becomes Argon2id", arguments: kinds)
    func nativeSignIn(_ kind: Kind) async throws {
        let server = try LatchTestServer.start(mode: .inProcess)
        defer { server.stop() }
        let user = try Self.user(server, email: "ada@example.com", hash: kind.encoded)
        let wire = WireClient(server)
        let wrong = try await TokenHelpers.passwordSignIn(wire, email: user.email, password: Self.password + "x")
        #expect(wrong.status == 400)
        #expect(wrong.error == "invalid_grant")
        #expect(try Self.stored(server, user).passwordHash == kind.encoded)
        #expect(try Self.stored(server, user).failedSignIns == 1)

        let reply = try await TokenHelpers.passwordSignIn(wire, email: user.email, password: Self.password)
        #expect(reply.status == 200)
        let after = try Self.stored(server, user)
        #expect(after.passwordHash?.hasPrefix("$argon2id$") == true)
        #expect(after.failedSignIns == 0)
        // The new hash is the one checked from now on.
        #expect(try await TokenHelpers.passwordSignIn(wire, email: user.email, password: Self.password).status == 200)
        #expect(try await TokenHelpers.passwordSignIn(wire, email: user.email, password: Self.password + "x").status == 400)
    }

    @Test("signInWithPassword: the imported password signs in and the stored hash becomes Argon2id", arguments: kinds)
    func firebaseSignIn(_ kind: Kind) async throws {
        try await withFirebaseServer { client in
            let user = try Self.user(client.server, email: "ada@example.com", hash: kind.encoded)
            expectError(
                try await client.post(Self.signIn, ["email": user.email, "password": Self.password + "x"]), "INVALID_PASSWORD")
            #expect(try Self.stored(client.server, user).passwordHash == kind.encoded)
            #expect(try Self.stored(client.server, user).failedSignIns == 1)

            let reply = try await client.post(Self.signIn, ["email": user.email, "password": Self.password])
            #expect(reply.status == 200)
            #expect(reply.string("localId") == user.id)
            #expect(reply.string("idToken") != nil)
            let after = try Self.stored(client.server, user)
            #expect(after.passwordHash?.hasPrefix("$argon2id$") == true)
            #expect(after.failedSignIns == 0)
            let again = try await client.post(Self.signIn, ["email": user.email, "password": Self.password])
            #expect(again.status == 200)
        }
    }

    @Test("wrong passwords on an imported hash count toward the delay like any other")
    func lockout() async throws {
        try await withFirebaseServer { client in
            try client.server.updateTenant { $0.signInFailuresBeforeDelay = 3 }
            let kind = try #require(Self.kinds.first { $0.name == "BCRYPT" })
            let user = try Self.user(client.server, email: "ada@example.com", hash: kind.encoded)
            for _ in 0..<2 {
                expectError(try await client.post(Self.signIn, ["email": user.email, "password": "wrong"]), "INVALID_PASSWORD")
            }
            // The third failure starts the delay; from then on even the right password is refused unhashed.
            expectError(try await client.post(Self.signIn, ["email": user.email, "password": "wrong"]), "INVALID_PASSWORD")
            let refused = try await client.post(Self.signIn, ["email": user.email, "password": Self.password])
            #expect(refused.status == 400)
            #expect(String(decoding: refused.body, as: UTF8.self).contains("TOO_MANY_ATTEMPTS_TRY_LATER"))
            #expect(try Self.stored(client.server, user).passwordHash == kind.encoded)
            #expect(try Self.stored(client.server, user).failedSignIns == 3)
            let audit = try client.server.app.services.admin.auditEvents(
                tenant: try client.server.app.services.admin.tenant(named: "default"))
            #expect(audit.contains { $0.kind == .signInBlocked && $0.userID == user.id })
        }
    }

    @Test("a corrupt stored hash fails like a wrong password, on both wires, never a 500")
    func corruptHash() async throws {
        try await withFirebaseServer { client in
            let corrupt = [
                "$firebase-scrypt$v=1$99$8$AAAA$Bw$AAAA$AAAA", "$pbkdf2-sha256$1000$$", "$2b$05$abc", "$hmac-sha256$sp$",
                "$argon2id$v=19$m=1,t=1,p=1$$", "garbage",
            ]
            for (index, text) in corrupt.enumerated() {
                let user = try Self.user(client.server, email: "user\(index)@example.com", hash: text)
                expectError(
                    try await client.post(Self.signIn, ["email": user.email, "password": Self.password]), "INVALID_PASSWORD")
                let native = try await TokenHelpers.passwordSignIn(
                    WireClient(client.server), email: user.email, password: Self.password)
                #expect(native.status == 400, "\(text)")
                #expect(native.error == "invalid_grant", "\(text)")
                #expect(try Self.stored(client.server, user).passwordHash == text)
                #expect(try Self.stored(client.server, user).failedSignIns == 2)
            }
        }
    }

    @Test("concurrent sign-ins with an imported password all succeed and leave one Argon2id hash")
    func concurrentRehash() async throws {
        try await withFirebaseServer { client in
            let kind = try #require(Self.kinds.first { $0.name == "SCRYPT" })
            let user = try Self.user(client.server, email: "ada@example.com", hash: kind.encoded)
            let statuses = try await withThrowingTaskGroup(of: Int.self) { group in
                for _ in 0..<4 {
                    group.addTask { try await client.post(Self.signIn, ["email": user.email, "password": Self.password]).status }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            #expect(statuses == [200, 200, 200, 200])
            let after = try Self.stored(client.server, user)
            #expect(after.passwordHash?.hasPrefix("$argon2id$") == true)
            #expect(after.failedSignIns == 0)
            let reply = try await client.post(Self.signIn, ["email": user.email, "password": Self.password])
            #expect(reply.status == 200)
        }
    }

    @Test("an imported hash in one tenant does not sign in through another tenant's client")
    func otherTenant() async throws {
        let server = try LatchTestServer.start(mode: .inProcess)
        defer { server.stop() }
        let kind = try #require(Self.kinds.first { $0.name == "PBKDF2_SHA256" })
        let user = try Self.user(server, email: "ada@example.com", hash: kind.encoded)
        let other = try server.app.services.admin.createTenant(name: "other", settings: TenantSettings())
        _ = try server.app.services.admin.createClient(tenant: other, id: "app", name: "app")
        let initiate = try await WireClient(server, tenant: "other", clientID: "app").post(
            "oauth2/v2.0/initiate", ["username": user.email, "challenge_type": "password redirect"])
        #expect(initiate.status == 400)
        #expect(initiate.error == "user_not_found")
        #expect(try Self.stored(server, user).passwordHash == kind.encoded)
    }
}
