import Foundation
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// `latchd serve --emulator` from the built binary: it says so in its banner and serves the
/// emulator's endpoints and `Bearer owner`; plain `--dev` does neither (`reference/firebase-auth-protocol.md` § 7).
@Suite("Firebase: latchd serve --emulator")
struct EmulatorServeTests {
    private static func status(_ url: String, bearer: String? = nil) async throws -> Int {
        var request = URLRequest(url: try #require(URL(string: url)))
        request.httpMethod = "POST"
        if let bearer {
            request.httpBody = Data(#"{"localId":["x"]}"#.utf8)
            request.setValue("application/json", forHTTPHeaderField: "Content-Type")
            request.setValue("Bearer \(bearer)", forHTTPHeaderField: "Authorization")
        } else {
            request.httpMethod = "GET"
        }
        let (_, response) = try await URLSession.shared.data(for: request)
        return try #require(response as? HTTPURLResponse).statusCode
    }

    @Test("--emulator announces itself and serves the emulator endpoints; --dev alone does not")
    func emulatorFlag() async throws {
        let directory = LatchdProcess.temporaryDataDirectory()
        defer { LatchdProcess.removeData(directory) }
        let emulator = try await LatchdProcess.start(dataDirectory: directory, arguments: ["--emulator"])
        #expect(emulator.log.contains("EMULATOR MODE"))
        #expect(emulator.log.contains("FIREBASE_AUTH_EMULATOR_HOST=127.0.0.1:\(emulator.port)"))
        #expect(try await Self.status(emulator.baseURL + "/emulator/v1/projects/default/config") == 200)
        let lookup = emulator.baseURL + "/identitytoolkit.googleapis.com/v1/projects/default/accounts:lookup"
        #expect(try await Self.status(lookup, bearer: "owner") == 200)
        emulator.send(SIGTERM)
        #expect(await emulator.waitForExit())

        let plain = try await LatchdProcess.start(dataDirectory: directory)
        defer { plain.forceStop() }
        #expect(!plain.log.contains("EMULATOR MODE"))
        #expect(try await Self.status(plain.baseURL + "/emulator/v1/projects/default/config") == 404)
        #expect(
            try await Self.status(lookup.replacingOccurrences(of: emulator.baseURL, with: plain.baseURL), bearer: "owner") == 401)
    }
}
