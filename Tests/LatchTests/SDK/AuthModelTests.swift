#if canImport(Observation)
    import Foundation
    import LatchObservation
    import LatchTesting
    import Testing

    @testable import Latch

    /// The `@Observable` model of ``LatchObservation``.
    @Suite("LatchAuthModel", .timeLimit(.minutes(1)))
    @MainActor
    struct AuthModelTests {
        /// Waits on the main actor until `condition` holds (at most 10 s).
        func eventually(_ condition: () -> Bool) async throws {
            let deadline = Date().addingTimeInterval(10)
            while !condition() && Date() < deadline { try await Task.sleep(nanoseconds: 10_000_000) }
        }

        @Test("follows sign-in, offline, refresh and sign-out")
        func followsTheClient() async throws {
            let env = try SDKTest.Environment()
            defer { env.stop() }
            let broken = SDKTest.Switch()
            let recorder = env.recorder
            var configuration = env.configuration(store: InMemoryCredentialStore())
            configuration.transport = HTTPTransport { request in
                if broken.isOn { throw URLError(.notConnectedToInternet) }
                return try await recorder.transport.send(request)
            }
            let client = try LatchClient(configuration: configuration)
            let model = LatchAuthModel(client: client)
            try await eventually { model.isLoaded }
            #expect(model.account == nil)
            #expect(!model.isSignedIn)

            let email = SDKTest.email("model")
            let signedIn = try await env.signedIn(client, email: email)
            try await eventually { model.isSignedIn }
            #expect(model.account?.id == signedIn.account.id)

            broken.turnOn()
            _ = try? await client.acquireTokenSilent(account: signedIn.account, forceRefresh: true)
            try await eventually { model.isOffline }
            #expect(model.isOffline)
            #expect(model.isSignedIn)

            broken.turnOff()
            _ = try await client.acquireTokenSilent(account: signedIn.account, forceRefresh: true)
            try await eventually { !model.isOffline }
            #expect(!model.isOffline)

            try await client.signOut(account: signedIn.account)
            try await eventually { model.account == nil }
            #expect(!model.isSignedIn)
            #expect(model.lastEvent.map(AuthStateText.event) == "signedOut \(email)")
        }

        @Test("stops listening once released")
        func releases() async throws {
            let env = try SDKTest.Environment()
            defer { env.stop() }
            let client = try env.client()
            var model: LatchAuthModel? = LatchAuthModel(client: client)
            try await eventually { model?.isLoaded == true }
            #expect(client.session.tokens.authState.listenerCount == 2)
            model = nil
            try await eventually { client.session.tokens.authState.listenerCount == 0 }
            #expect(client.session.tokens.authState.listenerCount == 0)
        }
    }
#endif
