import Foundation
import Latch
import LatchServer
import LatchTesting
import Testing

/// The SDK's Firebase-style surface against the real server's Identity Toolkit family.
@Suite("SDK ↔ server: Firebase-style accounts (first slice)", .timeLimit(.minutes(1)))
struct FirebaseEndToEndTests {
    static func client(_ server: LatchTestServer) throws -> LatchClient {
        let tenant = try server.app.services.directory.tenant(named: "default")
        let apiKey = try #require(try server.app.services.admin.clients(tenant: tenant).first { $0.id == "latch-dev" }?.apiKey)
        return try server.makeClient { $0.apiKey = apiKey }
    }

    @Test("createUser → currentUser → ID token → signOut → signIn(email:password:) → updatePassword → old password refused")
    func passwordAccountLifecycle() async throws {
        let server = try LatchTestServer.start(mode: .inProcess)
        defer { server.stop() }
        let client = try Self.client(server)
        let email = SDKTest.email("fb-e2e")
        let created = try await client.firebase.createUser(email: email, password: SDKTest.password)
        #expect(created.email == email)
        #expect(try await client.firebase.currentUser?.uid == created.uid)
        let token = try await created.getIDToken(forceRefresh: false)
        #expect(!token.isEmpty)
        let result = try await created.getIDTokenResult(forceRefresh: true)
        #expect(result.signInProvider == "password")
        try await client.firebase.signOut()
        #expect(try await client.firebase.currentUser == nil)

        let signedIn = try await client.firebase.signIn(email: email, password: SDKTest.password)
        #expect(signedIn.uid == created.uid)
        _ = try await signedIn.updatePassword(to: "Lantern-Quartz-Meadow-71")
        try await client.firebase.signOut()
        do {
            _ = try await client.firebase.signIn(email: email, password: SDKTest.password)
            Issue.record("the old password still signs in")
        } catch let error as LatchError {
            #expect(error.code == .wrongPassword)
        }
        _ = try await client.firebase.signIn(email: email, password: "Lantern-Quartz-Meadow-71")
    }

    @Test("anonymous sign-in, and a native sign-up that signs in through the Firebase surface")
    func anonymousAndNative() async throws {
        let server = try LatchTestServer.start(mode: .inProcess)
        defer { server.stop() }
        let client = try Self.client(server)
        let anonymous = try await client.firebase.signInAnonymously()
        #expect(anonymous.isAnonymous)
        try await client.firebase.signOut()

        let email = SDKTest.email("native-then-fb")
        _ = try server.createUser(email: email, password: SDKTest.password)
        let user = try await client.firebase.signIn(email: email, password: SDKTest.password)
        #expect(user.email == email)
        #expect(try await client.currentAccount?.username == email)
    }
}
