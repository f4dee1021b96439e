import Foundation
import LatchServer
import LatchTesting
import Testing

/// Anonymous accounts have a placeholder address that no wire signs in with.
@Suite("Firebase: anonymous accounts")
struct AnonymousAccountTests {
    @Test("native auth and signInWithPassword answer an anonymous account's placeholder address as unknown")
    func placeholderIsNotAnAccount() async throws {
        let server = try LatchTestServer.start(mode: .inProcess)
        defer { server.stop() }
        let firebase = try FirebaseClient(server)
        let anonymous = try await firebase.post(FirebaseClient.v1 + "accounts:signUp", ["returnSecureToken": true])
        #expect(anonymous.status == 200, "\(anonymous.json)")
        let localID = try #require(anonymous.string("localId"))
        let placeholder = "\(localID)@anonymous.invalid"

        let initiate = try await WireClient(server).post(
            "oauth2/v2.0/initiate", ["username": placeholder, "challenge_type": "oob password redirect"])
        #expect(initiate.status == 400)
        #expect(initiate.error == "user_not_found")

        let password = try await firebase.post(
            FirebaseClient.v1 + "accounts:signInWithPassword",
            ["email": placeholder, "password": "Anything-Goes-123", "returnSecureToken": true])
        #expect(password.status == 400)
        #expect((password["error"] as? [String: Any])?["message"] as? String == "EMAIL_NOT_FOUND")
    }
}
