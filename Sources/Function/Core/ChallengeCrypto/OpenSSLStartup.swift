import COpenSSL

/// What must reach OpenSSL before anything else in the process starts it.
public enum OpenSSLStartup {
    /// Keeps OpenSSL's legacy table of cipher names empty.
    ///
    /// libcurl's start (`curl_global_init`) would fill it with every cipher OpenSSL knows, and OpenSSL's first
    /// algorithm fetch would then copy each of those names into the name map that fetches use: 2.1 M instructions, a
    /// tenth of the bootstrap's start. Nothing looks a cipher up there: this code fetches from OpenSSL's providers by
    /// name, and so does OpenSSL 3's TLS. The digest table stays, as certificate checks look a signature's digest up
    /// in it. Call it first, before libcurl or OpenSSL is used; once they have started it changes nothing.
    public static func leaveLegacyCipherTableEmpty() {
        _ = OPENSSL_init_crypto(UInt64(OPENSSL_INIT_NO_ADD_ALL_CIPHERS), nil)
    }
}
