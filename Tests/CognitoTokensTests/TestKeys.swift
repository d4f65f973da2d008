import LocalUserPool

/// Keys generated once per test run: RSA generation takes a noticeable fraction of a second.
enum TestKeys {
    static let first = try! TokenSigningKey.generate()
    static let second = try! TokenSigningKey.generate()
}
