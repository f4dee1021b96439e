import Foundation
import LatchServer
import LatchTesting
import Testing

/// A client's protection policy (`app_attestation`): every native-auth request must name one of
/// the client's registered key ids in `Latch-App-Attestation`.
@Suite("Client protection policy")
struct ProtectionPolicyWireTests {
    @Test("without the header, or with an unknown key id: unauthorized_client + protection_policy_required naming the policy")
    func attestationRequired() async throws {
        let server = try LatchTestServer.start(mode: .inProcess)
        defer { server.stop() }
        let tenant = try server.app.services.directory.tenant(named: "default")
        _ = try server.app.services.admin.createClient(
            tenant: tenant, id: "attested-app", name: "Attested", attestationKeyIDs: ["key-1", "key-2"])
        let email = TokenHelpers.uniqueEmail("attested")
        _ = try server.createUser(email: email, password: TokenHelpers.password)
        let client = WireClient(server, clientID: "attested-app")
        let form = ["username": email, "challenge_type": "password redirect"]
        for headers in [[:], ["Latch-App-Attestation": "key-3"], ["Latch-App-Attestation": ""]] {
            let refused = try await client.post("oauth2/v2.0/initiate", form, headers: headers)
            #expect(refused.status == 400)
            #expect(refused.error == "unauthorized_client")
            #expect(refused.suberror == "protection_policy_required")
            #expect(refused.string("protection_policy") == "app_attestation")
        }
        let admitted = try await TokenHelpers.passwordSignIn(
            client, email: email, headers: ["Latch-App-Attestation": "key-2"])
        #expect(admitted.status == 200, "\(admitted.json)")
        // Other clients of the tenant are not affected.
        let other = try await TokenHelpers.passwordSignIn(WireClient(server), email: email)
        #expect(other.status == 200)
    }

    @Test("a key id with spaces or control characters cannot be registered")
    func keyIDsValidated() throws {
        let server = try LatchTestServer.start(mode: .inProcess)
        defer { server.stop() }
        let tenant = try server.app.services.directory.tenant(named: "default")
        #expect(throws: AuthFailure.invalidParameter(.keyID)) {
            _ = try server.app.services.admin.createClient(
                tenant: tenant, id: "bad-keys", name: "Bad", attestationKeyIDs: ["has space"])
        }
    }
}
