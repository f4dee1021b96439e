import LatchServer

/// The command line of `latchd serve`, parsed and checked before anything starts. ``ServeCommand``
/// applies it over the config file and the environment.
struct ServeOptions: Sendable {
    /// The values of `--durability`.
    enum Durability: String, Sendable {
        /// Answer a write only once it is on disk.
        case full
        /// Crash-safe, but the last commits may be lost on power loss.
        case normal
    }

    /// `--listen HOST:PORT`, checked to be of that form.
    var listen: String?
    /// `--data-dir DIR`.
    var dataDirectory: String?
    /// `--config FILE`.
    var configFile: String?
    /// `--database-url URL`.
    var databaseURL: String?
    /// `--public-url URL`.
    var publicURL: String?
    /// `--durability full|normal`.
    var durability: Durability?
    /// `--http-threads N`, a positive number.
    var httpThreads: Int?
    /// `--dev`.
    var development = false
    /// `--emulator` (the Firebase emulator endpoints; runs as `--dev` until they exist).
    var emulator = false
    /// The defaults: nothing given.
    init() {}

    /// Reads and checks the options of `arguments`.
    /// - Throws: ``UsageError`` naming the option with a malformed value.
    init(_ arguments: Arguments) throws {
        if let listen = arguments.value("listen") {
            var probe = LatchServerConfiguration()
            do {
                try probe.setListen(listen)
            } catch {
                throw UsageError("option '--listen' expects HOST:PORT, got '\(listen)'")
            }
            self.listen = listen
        }
        dataDirectory = arguments.value("data-dir")
        configFile = arguments.value("config")
        databaseURL = arguments.value("database-url")
        publicURL = arguments.value("public-url")
        if let value = arguments.value("durability") {
            guard let durability = Durability(rawValue: value) else {
                throw UsageError("option '--durability' is 'full' or 'normal', not '\(value)'")
            }
            self.durability = durability
        }
        if let value = arguments.value("http-threads") {
            guard let count = Int(value), count > 0 else {
                throw UsageError("option '--http-threads' expects a positive number, not '\(value)'")
            }
            httpThreads = count
        }
        development = arguments.flag("dev")
        emulator = arguments.flag("emulator")
    }
}
