import Foundation

/// An SQLite database as it lies on disk: the main file and, when present, its write-ahead log
/// and rollback journal, read byte for byte behind the store's back.
struct DatabaseFileBytes {
    /// Each file that exists, by path.
    let files: [String: Data]

    /// Reads the database at `path` and its `-wal` and `-journal` files.
    init(database path: String) {
        var files: [String: Data] = [:]
        for file in [path, path + "-wal", path + "-journal"] {
            if let data = FileManager.default.contents(atPath: file) { files[file] = data }
        }
        self.files = files
    }

    /// The files holding `text`'s UTF-8 bytes anywhere.
    func files(containing text: String) -> [String] {
        let needle = Data(text.utf8)
        return files.filter { $0.value.range(of: needle) != nil }.map(\.key).sorted()
    }
}
