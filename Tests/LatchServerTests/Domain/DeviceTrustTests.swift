import Foundation
import LatchWire
import Testing

@testable import LatchServer

/// The device-token format and its MAC (``DeviceTrust``), without a server.
@Suite("Device token format")
struct DeviceTrustTests {
    static let tenant = Tenant(
        id: "tenant-1", name: "default", settings: TenantSettings(), createdAt: Date(timeIntervalSince1970: 0))
    static let now = Date(timeIntervalSince1970: 1_800_000_000.75)

    @Test("a token issued for a user comes back trusted with its claims; a renewal keeps the device id")
    func roundTrip() throws {
        let trust = try DeviceTrust(masterKey: [UInt8](repeating: 1, count: 32))
        let text = try #require(trust.issue(for: "user-1", tenant: Self.tenant, renewing: nil, at: Self.now))
        let token = try #require(trust.trusted(PresentedDeviceToken(text), tenant: Self.tenant, userID: "user-1", at: Self.now))
        #expect(token.tenantID == "tenant-1")
        #expect(token.userID == "user-1")
        #expect(token.deviceID.count == 22)
        #expect(token.issuedAt == Date(timeIntervalSince1970: 1_800_000_000))
        #expect(token.expiresAt == token.issuedAt.addingTimeInterval(90 * 86_400))
        #expect(text.count < 200)

        let later = Self.now.addingTimeInterval(3600)
        let renewed = try #require(trust.issue(for: "user-1", tenant: Self.tenant, renewing: token, at: later))
        let renewedToken = try #require(
            trust.trusted(PresentedDeviceToken(renewed), tenant: Self.tenant, userID: "user-1", at: later))
        #expect(renewedToken.deviceID == token.deviceID)
        #expect(renewedToken.expiresAt == token.expiresAt.addingTimeInterval(3600))
        let fresh = try #require(trust.issue(for: "user-1", tenant: Self.tenant, renewing: nil, at: later))
        let freshToken = try #require(
            trust.trusted(PresentedDeviceToken(fresh), tenant: Self.tenant, userID: "user-1", at: later))
        #expect(freshToken.deviceID != token.deviceID)
    }

    @Test("a token MACed under another master key, for another user or tenant, or expired is not trusted")
    func refusals() throws {
        let trust = try DeviceTrust(masterKey: [UInt8](repeating: 1, count: 32))
        let other = try DeviceTrust(masterKey: [UInt8](repeating: 2, count: 32))
        let text = try #require(other.issue(for: "user-1", tenant: Self.tenant, renewing: nil, at: Self.now))
        #expect(trust.trusted(PresentedDeviceToken(text), tenant: Self.tenant, userID: "user-1", at: Self.now) == nil)

        let own = PresentedDeviceToken(try #require(trust.issue(for: "user-1", tenant: Self.tenant, renewing: nil, at: Self.now)))
        #expect(trust.trusted(own, tenant: Self.tenant, userID: "user-2", at: Self.now) == nil)
        #expect(trust.trusted(own, tenant: Self.tenant, userID: nil, at: Self.now) == nil)
        var otherTenant = Self.tenant
        otherTenant.id = "tenant-2"
        #expect(trust.trusted(own, tenant: otherTenant, userID: "user-1", at: Self.now) == nil)
        var off = Self.tenant
        off.settings.deviceTokenLifetime = 0
        #expect(trust.trusted(own, tenant: off, userID: "user-1", at: Self.now) == nil)
        #expect(trust.issue(for: "user-1", tenant: off, renewing: nil, at: Self.now) == nil)
        let expiry = Date(timeIntervalSince1970: 1_800_000_000 + 90 * 86_400)
        #expect(trust.trusted(own, tenant: Self.tenant, userID: "user-1", at: expiry.addingTimeInterval(-1)) != nil)
        #expect(trust.trusted(own, tenant: Self.tenant, userID: "user-1", at: expiry) == nil)
    }

    @Test("the payload decodes only with exactly its five fields")
    func payloadShape() throws {
        let token = DeviceToken(
            tenantID: "t", userID: "u", deviceID: "d", issuedAt: Date(timeIntervalSince1970: 1),
            expiresAt: Date(timeIntervalSince1970: 2))
        let payload = try #require(token.payload)
        #expect(payload == [1, 116, 1, 117, 1, 100, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 2])
        #expect(DeviceToken(payload: payload) == token)
        #expect(DeviceToken(payload: payload + [0]) == nil)
        #expect(DeviceToken(payload: Array(payload.dropLast())) == nil)
        #expect(DeviceToken(payload: [0] + Array(payload.dropFirst(2))) == nil, "an empty id")
        #expect(DeviceToken(payload: []) == nil)
        let long = DeviceToken(
            tenantID: String(repeating: "t", count: 256), userID: "u", deviceID: "d", issuedAt: token.issuedAt,
            expiresAt: token.expiresAt)
        #expect(long.payload == nil)
    }

    @Test("the compact form is ldc1, the base64url payload and a 32-byte MAC; other shapes do not parse")
    func compactForm() throws {
        let trust = try DeviceTrust(masterKey: [UInt8](repeating: 1, count: 32))
        let text = try #require(trust.issue(for: "user-1", tenant: Self.tenant, renewing: nil, at: Self.now))
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        #expect(parts.count == 3)
        #expect(parts[0] == "ldc1")
        #expect(Base64URL.decode(parts[2])?.count == 32)
        #expect(PresentedDeviceToken(text) != nil)
        for bad in ["", "ldc1", "ldc1..", "ldc1.\(parts[1])", "ldc1.\(parts[1]).\(parts[2]).x", "LDC1.\(parts[1]).\(parts[2])"] {
            #expect(PresentedDeviceToken(bad) == nil, "\(bad)")
        }
        #expect(PresentedDeviceToken("ldc1.\(parts[1]).\(parts[2].dropLast(2))") == nil, "a short MAC")
        #expect(PresentedDeviceToken("ldc1.\(String(repeating: "A", count: 600)).\(parts[2])") == nil, "oversized")
    }
}
