import Foundation
import LatchServer
import LatchTesting
import LatchWire
import Testing

/// Guessing second-factor codes, with the password known, from many sources (loopback only,
/// bounded): each code takes at most the tenant's attempts, sends stop at the per-address cap,
/// the account's sign-in delay grows, and the real user on a trusted device still gets a code and
/// completes MFA.
@Suite("MFA: code guessing from many sources")
struct SecondFactorGuessingTests {
    static let target = "mine@example.org"

    /// The `/token` answer of a password sign-in from `address`, with `deviceToken` when given.
    static func passwordStep(
        _ server: LatchTestServer, _ email: String, from address: String, deviceToken: String? = nil,
        capabilities: String = "mfa_required"
    ) async throws -> WireResponse {
        var client = WireClient(server)
        client.remoteAddress = address
        let initiate = try await client.post(
            "oauth2/v2.0/initiate",
            ["username": email, "challenge_type": "oob password redirect", "capabilities": capabilities])
        guard initiate.status == 200 else { return initiate }
        let challenge = try await client.post(
            "oauth2/v2.0/challenge",
            ["continuation_token": try #require(initiate.continuationToken), "challenge_type": "oob password redirect"])
        var form = [
            "grant_type": "password", "continuation_token": try #require(challenge.continuationToken),
            "password": TokenHelpers.password, "scope": "openid offline_access",
        ]
        if let deviceToken { form["device_token"] = deviceToken }
        return try await client.post("oauth2/v2.0/token", form)
    }

    @Test("12 sources guessing: ≤ 5 checks per code, ≤ 15 codes sent, and the trusted device still completes MFA")
    func manySourcesGuessing() async throws {
        let server = try LatchTestServer.start(mode: .inProcess)
        defer { server.stop() }
        let email = TokenHelpers.uniqueEmail("guessed")
        let user = try server.createUser(email: email, password: TokenHelpers.password)
        try SecondFactorTests.addMethods([(.email, Self.target)], to: user, in: server)
        // The real user signed in on this device before MFA was turned on, and kept its device token.
        let earlier = try await Self.passwordStep(server, email, from: "198.51.100.7")
        let deviceToken = try #require(earlier.string("device_token"))
        try server.updateTenant { $0.mfa.policy = .required }

        var wrongAnswers: [Int] = []  // per code: wrong guesses answered invalid_oob_value before it burnt
        var delayed = 0
        var sendsRefused = 0
        for source in 1...12 {
            let address = "203.0.113.\(source)"
            let first = try await Self.passwordStep(server, email, from: address)
            if first.status == 429 {
                delayed += 1
                continue
            }
            try #require(first.suberror == "mfa_required", "\(first.json)")
            var client = WireClient(server)
            client.remoteAddress = address
            let challenge = try await client.post(
                "oauth2/v2.0/challenge",
                ["continuation_token": try #require(first.continuationToken), "challenge_type": "oob redirect"])
            guard challenge.status == 200 else {
                #expect(challenge.status == 429)
                sendsRefused += 1
                continue
            }
            let code = try #require(try server.latestCode(to: Self.target))
            // A wrong code keeps the flow's token: every guess goes with the same one.
            let token = try #require(challenge.continuationToken)
            var wrong = 0
            for guess in 0..<8 {
                let candidate = String(format: "%08d", guess == 0 ? 12_345_678 : guess)
                guard candidate != code else { continue }
                let reply = try await client.post(
                    "oauth2/v2.0/token", ["grant_type": "mfa_oob", "continuation_token": token, "oob": candidate])
                #expect(reply.status == 400)
                if reply.errorCodes.first == ServerErrorCode.invalidCode { wrong += 1 } else { break }
            }
            wrongAnswers.append(wrong)
        }
        let settings = try server.app.services.directory.tenant(named: "default").settings
        #expect(wrongAnswers.allSatisfy { $0 < settings.codeMaxAttempts }, "\(wrongAnswers)")
        let sent = try server.outbox(to: Self.target).count
        #expect(sent <= settings.codeSendsPerAddressPerWindow)
        #expect(delayed + sendsRefused > 0, "neither the account's delay nor the send cap ever held")

        // The real user, from the trusted device: not delayed, and a code still goes out.
        let real = try await Self.passwordStep(server, email, from: "198.51.100.7", deviceToken: deviceToken)
        #expect(real.suberror == "mfa_required", "\(real.json)")
        var client = WireClient(server)
        client.remoteAddress = "198.51.100.7"
        let challenge = try await client.post(
            "oauth2/v2.0/challenge",
            ["continuation_token": try #require(real.continuationToken), "challenge_type": "oob redirect"])
        #expect(challenge.status == 200, "\(challenge.json)")
        let code = try #require(try server.latestCode(to: Self.target))
        let done = try await client.post(
            "oauth2/v2.0/token",
            ["grant_type": "mfa_oob", "continuation_token": try #require(challenge.continuationToken), "oob": code])
        #expect(done.status == 200, "\(done.json)")
        // The sign-in renewed that device's token (same device id), though the last grant did not send it.
        let renewed = try #require(done.string("device_token"))
        #expect(try Self.deviceID(of: renewed) == Self.deviceID(of: deviceToken))
    }

    /// The device id inside a device token `ldc1.<payload>.<mac>`: the payload's third
    /// length-prefixed string (tenant, user, device).
    static func deviceID(of token: String) throws -> String {
        let parts = token.split(separator: ".")
        try #require(parts.count == 3)
        var base64 = parts[1].replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        base64 += String(repeating: "=", count: (4 - base64.count % 4) % 4)
        let bytes = try #require(Data(base64Encoded: base64).map { [UInt8]($0) })
        var index = 0
        var fields: [String] = []
        for _ in 0..<3 {
            let length = Int(bytes[index])
            fields.append(String(decoding: bytes[(index + 1)..<(index + 1 + length)], as: UTF8.self))
            index += 1 + length
        }
        return fields[2]
    }

    @Test("registration codes from several sources: each code takes at most the tenant's attempts")
    func registrationCodeGuessing() async throws {
        try await SecondFactorTests.withMFAUser(methods: []) { server, email, _ in
            let attempts = try server.app.services.directory.tenant(named: "default").settings.codeMaxAttempts
            for source in 1...3 {
                let address = "203.0.113.\(100 + source)"
                var client = WireClient(server)
                client.remoteAddress = address
                let first = try await Self.passwordStep(
                    server, email, from: address, capabilities: SecondFactorTests.capabilities)
                try #require(first.suberror == "registration_required", "\(first.json)")
                let challenge = try await client.post(
                    "register/v1.0/challenge",
                    [
                        "continuation_token": try #require(first.continuationToken), "challenge_type": "oob",
                        "challenge_target": "+1415555\(String(format: "%04d", source))", "challenge_channel": "sms",
                    ])
                let token = try #require(challenge.continuationToken)
                let code = try #require(try server.latestCode(to: "+1415555\(String(format: "%04d", source))"))
                var wrong = 0
                for guess in 1...8 {
                    let candidate = String(format: "%08d", guess)
                    guard candidate != code else { continue }
                    let reply = try await client.post(
                        "register/v1.0/continue", ["continuation_token": token, "grant_type": "oob", "oob": candidate])
                    #expect(reply.suberror == "invalid_oob_value")
                    if reply.errorCodes.first == ServerErrorCode.invalidCode { wrong += 1 } else { break }
                }
                #expect(wrong < attempts, "\(wrong) wrong answers from \(address)")
                let late = try await client.post(
                    "register/v1.0/continue", ["continuation_token": token, "grant_type": "oob", "oob": code])
                #expect(late.status == 400, "the right code after the limit is refused too")
            }
        }
    }
}
