import Foundation
import LatchCrypto
import LatchServer
import LatchTesting

/// The domain services over a real SQLite store in a temporary directory, with no HTTP at all.
final class DomainFixture: Sendable {
    let services: AuthServices
    let clock = TestClock()
    let context: ClientContext
    private let store: SQLiteStore
    private let directory: String

    init(settings: TenantSettings = TenantSettings()) throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("latch-domain-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        store = try SQLiteStore(path: directory + "/latch.db")
        services = try AuthServices(
            store: store, clock: clock, masterKey: SecureRandom.bytes(count: 32), baseURL: "http://domain.test",
            hasher: Argon2idHasher(parameters: .init(memoryKiB: 1024, iterations: 1, parallelism: 1)))
        let tenant = try services.admin.createTenant(name: "default", settings: settings)
        let client = try services.admin.createClient(tenant: tenant, id: "app", name: "app")
        context = ClientContext(tenant: tenant, client: client, remoteAddress: "192.0.2.1")
    }

    deinit {
        store.close()
        try? FileManager.default.removeItem(atPath: directory)
    }

    /// The user as stored now.
    func reload(_ user: User) throws -> User {
        try require(try services.store.read { try $0.user(id: user.id, tenantID: user.tenantID) }, "user")
    }

    /// A continuation token of a finished sign-in flow for `user` (a password sign-in's token step
    /// is not needed: the continuation grant exercises the same session issuing).
    func passwordFlowToken(for user: User) throws -> String {
        guard
            case .started(let token) = try services.signIn.initiate(
                context, username: user.email, support: [.password, .browser], capabilities: [])
        else { throw DomainFixtureError("initiate did not start") }
        guard case .password(let next) = try services.signIn.challenge(context, continuationToken: token, support: nil)
        else { throw DomainFixtureError("challenge did not ask for the password") }
        return next
    }
}

struct DomainFixtureError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// `#require` for synchronous helpers outside a test body.
func require<T>(_ value: T?, _ what: String = "value") throws -> T {
    guard let value else { throw DomainFixtureError("missing \(what)") }
    return value
}
