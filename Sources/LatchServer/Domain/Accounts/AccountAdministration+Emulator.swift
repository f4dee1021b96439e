import Foundation

extension AccountAdministration {
    /// The project configuration the Auth emulator exposes (`reference/firebase-auth-protocol.md`
    /// § 7): duplicate e-mails (never, in Latch) and improved e-mail privacy (the tenant's
    /// ``TenantSettings/enumerationProtection``).
    public struct EmulatorConfiguration: Sendable, Equatable {
        /// Whether accounts may share an e-mail address: always `false`.
        public var allowDuplicateEmails = false
        /// Whether e-mail enumeration protection is on.
        public var enableImprovedEmailPrivacy: Bool
    }

    /// The emulator configuration of `tenant`.
    public func emulatorConfiguration(tenant: Tenant) -> EmulatorConfiguration {
        EmulatorConfiguration(enableImprovedEmailPrivacy: tenant.settings.enumerationProtection)
    }

    /// Changes the emulator configuration of `tenant`; `nil` leaves a setting.
    /// - Throws: ``AuthFailure/accountAdministration(_:)`` with
    ///   ``AccountAdminFailure/unsupportedSetting(_:)`` when duplicate e-mails are asked for: Latch
    ///   keeps one account per address in a tenant.
    public func configureEmulator(allowDuplicateEmails: Bool?, enableImprovedEmailPrivacy: Bool?, tenant: Tenant) throws
        -> EmulatorConfiguration
    {
        if allowDuplicateEmails == true {
            throw AuthFailure.accountAdministration(
                .unsupportedSetting(
                    "allowDuplicateEmails is not supported: Latch keeps e-mail addresses unique within a tenant"))
        }
        guard let enableImprovedEmailPrivacy else { return emulatorConfiguration(tenant: tenant) }
        let updated = try store.write { tx -> Tenant in
            guard var current = try tx.tenant(id: tenant.id) else { throw AuthFailure.unknownTenant }
            current.settings.enumerationProtection = enableImprovedEmailPrivacy
            guard try tx.updateSettings(current.settings, tenantID: current.id) else { throw AuthFailure.unknownTenant }
            return current
        }
        return emulatorConfiguration(tenant: updated)
    }
}
