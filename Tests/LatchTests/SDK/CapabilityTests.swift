import Foundation
import Latch
import LatchSDKTesting
import Testing

/// `capabilities`: accepted when the client is made, sent on the three flow starts only (as MSAL
/// does), space-separated, in the configured order.
@Suite("Capabilities (scripted)")
struct CapabilityTests {
    typealias Script = MFAScript

    /// Starts a sign-up, a sign-in and a reset, each answered as far as its first challenge.
    func startEveryFlow(_ client: LatchClient, _ script: ScriptedTransport) async throws {
        script.respond(to: "/signup/v1.0/start", with: Script.continuation("ct-1"))
        script.respond(to: "/signup/v1.0/challenge", with: Script.codeSent("ct-2"))
        script.respond(to: "/oauth2/v2.0/initiate", with: Script.continuation("ct-3"))
        script.respond(to: "/oauth2/v2.0/challenge", with: Script.codeSent("ct-4"))
        script.respond(to: "/resetpassword/v1.0/start", with: Script.continuation("ct-5"))
        script.respond(to: "/resetpassword/v1.0/challenge", with: Script.codeSent("ct-6"))
        _ = try await client.signUp(username: Script.email)
        _ = try await client.signIn(username: Script.email)
        _ = try await client.resetPassword(username: Script.email)
    }

    static let starts = ["/signup/v1.0/start", "/oauth2/v2.0/initiate", "/resetpassword/v1.0/start"]

    @Test(
        "the configured capabilities go on signup/v1.0/start, oauth2/v2.0/initiate and resetpassword/v1.0/start",
        arguments: [
            ([LatchConfiguration.Capability.mfaRequired, .registrationRequired], "mfa_required registration_required"),
            ([.registrationRequired, .mfaRequired], "registration_required mfa_required"),
            ([.mfaRequired], "mfa_required"), ([.registrationRequired], "registration_required"),
            ([.mfaRequired, .mfaRequired], "mfa_required"),
        ])
    func sentOnStarts(capabilities: [LatchConfiguration.Capability], expected: String) async throws {
        let script = ScriptedTransport()
        let client = try Script.client(script, capabilities: capabilities)
        #expect(client.configuration.capabilities == capabilities)
        try await startEveryFlow(client, script)
        for path in Self.starts {
            #expect(script.requests(to: path).map { $0.form["capabilities"] } == [expected], "\(path)")
        }
        let others = script.requests.filter { request in !Self.starts.contains { request.path.hasSuffix($0) } }
        #expect(others.count == 3)
        #expect(others.allSatisfy { $0.form["capabilities"] == nil }, "challenges carry no capabilities")
    }

    @Test("without capabilities, none is sent")
    func noneConfigured() async throws {
        let script = ScriptedTransport()
        let client = try Script.client(script, capabilities: [])
        try await startEveryFlow(client, script)
        #expect(script.requests.count == 6)
        #expect(script.requests.allSatisfy { $0.form["capabilities"] == nil })
    }
}
