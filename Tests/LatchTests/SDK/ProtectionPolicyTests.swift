import Foundation
import Latch
import LatchLocking
import LatchSDKTesting
import Testing

/// Protection policies: `unauthorized_client` + `protection_policy_required` names the policy, and
/// the app's ``LatchConfiguration/requestHeaders`` go with every request the SDK sends.
@Suite("Protection policies and request headers (scripted)")
struct ProtectionPolicyTests {
    typealias Script = MFAScript

    @Test("protection_policy_required → serverProtectionPoliciesRequired, whose recovery names the policy")
    func policyRequired() async throws {
        let script = ScriptedTransport()
        script.respond(
            to: "/oauth2/v2.0/initiate",
            with: Script.error(
                "unauthorized_client", suberror: "protection_policy_required", members: ["protection_policy": "app_attestation"]))
        let client = try Script.client(script)
        let error = try await #require(throws: LatchError.self) { try await client.signIn(username: Script.email) }
        #expect(error.code == .serverProtectionPoliciesRequired)
        #expect(error.code.rawValue == -50004)
        #expect(error.name == "ERROR_SERVER_PROTECTION_POLICIES_REQUIRED")
        #expect(error.protectionPolicy == "app_attestation")
        #expect(error.recovery == .satisfyProtectionPolicy(name: "app_attestation"))
        #expect(error.oauthError == "unauthorized_client")
        #expect(error.suberror == "protection_policy_required")
        #expect((error as NSError).userInfo[LatchError.UserInfoKey.protectionPolicy] as? String == "app_attestation")
    }

    @Test("the requestHeaders provider's headers go on every request; the SDK's own are not replaced")
    func headersOnEveryRequest() async throws {
        let script = ScriptedTransport()
        Script.passwordSignIn(script)
        script.respond(to: "/oauth2/v2.0/token", with: Script.mfaRequired("ct-mfa"))
        script.respond(to: "/oauth2/v2.0/introspect", with: Script.introspect("ct-introspected"))
        script.respond(to: "/oauth2/v2.0/challenge", with: Script.codeSent("ct-code"))
        script.respond(to: "/oauth2/v2.0/token", with: Script.tokens())
        script.respond(to: "/oauth2/v2.0/token", with: Script.tokens(refreshToken: "rt-2"))
        script.respond(to: "/oauth2/v2.0/revoke", with: ScriptedTransport.Response(body: Data()))
        let asked = Locked(0)
        let client = try Script.client(script) { configuration in
            configuration.requestHeaders = {
                asked.withLock { $0 += 1 }
                return ["Latch-App-Attestation": "key-7", "Content-Type": "text/plain", "client-request-id": "forged"]
            }
        }

        guard case .awaitingMFA(let awaiting) = try await client.signIn(username: Script.email, password: "pw"),
            case .completed(let result) = try await awaiting.requestChallenge().submitChallenge("123456")
        else {
            Issue.record("the sign-in did not complete")
            return
        }
        _ = try await client.acquireTokenSilent(account: result.account, forceRefresh: true)
        _ = try await client.signOut(account: result.account, scope: .global)

        let requests = script.requests
        #expect(requests.count == 8)
        #expect(asked.withLock { $0 } == requests.count, "asked once per request")
        for request in requests {
            #expect(header("Latch-App-Attestation", of: request) == "key-7", "\(request.path)")
            #expect(header("Content-Type", of: request) == "application/x-www-form-urlencoded", "\(request.path)")
            #expect(request.correlationID != "forged", "\(request.path)")
        }
    }

    @Test("a provider that throws fails the call before anything is sent")
    func throwingProvider() async throws {
        struct AttestationUnavailable: Error {}
        let script = ScriptedTransport()
        let client = try Script.client(script) { configuration in
            configuration.requestHeaders = { throw AttestationUnavailable() }
        }
        let error = try await #require(throws: LatchError.self) { try await client.signIn(username: Script.email) }
        #expect(error.code == .internal)
        #expect(error.underlyingError is AttestationUnavailable)
        #expect(error.correlationID != nil)

        let policy = LatchError(
            code: .serverProtectionPoliciesRequired, message: "no key yet", protectionPolicy: "app_attestation")
        let own = try Script.client(script) { configuration in configuration.requestHeaders = { throw policy } }
        let thrown = try await #require(throws: LatchError.self) { try await own.signIn(username: Script.email) }
        #expect(thrown.code == .serverProtectionPoliciesRequired)
        #expect(thrown.message == "no key yet")
        #expect(script.requests.isEmpty)
    }

    @Test("no headers by default")
    func defaultNone() async throws {
        let configuration = LatchPreview.configuration(transport: ScriptedTransport().transport)
        #expect(try await configuration.requestHeaders().isEmpty)
    }

    private func header(_ name: String, of request: ScriptedTransport.Request) -> String? {
        request.headers.first { $0.key.lowercased() == name.lowercased() }?.value
    }
}
