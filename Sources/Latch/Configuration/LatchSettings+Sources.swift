import Foundation

extension LatchSettings {
    /// The members of a settings file, JSON or property list.
    private struct File: Decodable {
        var server: String?
        var tenant: String?
        var clientID: String?
        var minimumValidity: TimeInterval?
        var apiKey: String?

        enum CodingKeys: String, CodingKey {
            case server, tenant
            case clientID = "client_id"
            case minimumValidity = "minimum_validity"
            case apiKey = "api_key"
        }
    }

    /// Settings from a JSON object with `server`, `tenant`, `client_id` (strings) and
    /// `minimum_validity` (a number of seconds), each optional.
    /// - Throws: ``LatchError/Code/invalidConfiguration`` when `data` is not such an object.
    public static func json(_ data: Data) throws -> LatchSettings {
        do {
            return LatchSettings(try JSONDecoder().decode(File.self, from: data))
        } catch {
            throw LatchError.invalidConfiguration(
                "The settings are not a JSON object with \"server\", \"tenant\", \"client_id\" strings "
                    + "and a \"minimum_validity\" number.")
        }
    }

    /// Settings from a property list dictionary with the keys of ``json(_:)``.
    /// - Throws: ``LatchError/Code/invalidConfiguration`` when `data` is not such a dictionary.
    public static func propertyList(_ data: Data) throws -> LatchSettings {
        do {
            return LatchSettings(try PropertyListDecoder().decode(File.self, from: data))
        } catch {
            throw LatchError.invalidConfiguration(
                "The settings are not a property list dictionary with \"server\", \"tenant\", \"client_id\" "
                    + "strings and a \"minimum_validity\" number.")
        }
    }

    /// Settings from the file at `path`: a property list when it ends in `.plist`, JSON otherwise.
    /// - Throws: ``LatchError/Code/invalidConfiguration`` naming the path when it cannot be read or
    ///   does not hold settings.
    public static func contentsOfFile(_ path: String) throws -> LatchSettings {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw LatchError.invalidConfiguration("Cannot read the settings file \(path).")
        }
        do {
            return path.hasSuffix(".plist") ? try propertyList(data) : try json(data)
        } catch let error as LatchError {
            throw LatchError.invalidConfiguration("\(path): \(error.message)")
        }
    }

    /// Settings from `Latch.plist` in `bundle` (the app's main bundle by default), or empty
    /// settings when the bundle holds none.
    /// - Throws: ``LatchError/Code/invalidConfiguration`` when the file exists but does not hold
    ///   settings.
    public static func bundled(in bundle: Bundle = .main) throws -> LatchSettings {
        guard let url = bundle.url(forResource: "Latch", withExtension: "plist") else { return LatchSettings() }
        return try contentsOfFile(url.path)
    }

    /// Settings from `LATCH_SERVER`, `LATCH_TENANT`, `LATCH_CLIENT_ID` and `LATCH_MINIMUM_VALIDITY`
    /// (empty variables count as unset).
    /// - Parameter environment: the variables; the process's by default.
    /// - Throws: ``LatchError/Code/invalidConfiguration`` when `LATCH_MINIMUM_VALIDITY` is not a
    ///   number.
    public static func environment(_ environment: [String: String] = ProcessInfo.processInfo.environment) throws
        -> LatchSettings
    {
        func value(_ name: String) -> String? {
            guard let value = environment[name], !value.isEmpty else { return nil }
            return value
        }
        var settings = LatchSettings(
            server: value("LATCH_SERVER"), tenant: value("LATCH_TENANT"), clientID: value("LATCH_CLIENT_ID"),
            apiKey: value("LATCH_API_KEY"))
        if let text = value("LATCH_MINIMUM_VALIDITY") {
            guard let seconds = TimeInterval(text) else {
                throw LatchError.invalidConfiguration("LATCH_MINIMUM_VALIDITY '\(text)' is not a number of seconds.")
            }
            settings.minimumValidity = seconds
        }
        return settings
    }

    private init(_ file: File) {
        self.init(
            server: file.server, tenant: file.tenant, clientID: file.clientID, minimumValidity: file.minimumValidity,
            apiKey: file.apiKey)
    }
}
