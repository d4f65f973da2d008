import COpenSSL

/// What must reach OpenSSL before anything else in the process starts it.
public enum OpenSSLStartup {
    /// Keeps OpenSSL's legacy tables of cipher and digest names empty.
    ///
    /// libcurl's start (`curl_global_init`) would fill them with every cipher and digest OpenSSL knows, and OpenSSL's
    /// first algorithm fetch would then copy each of those names into the name map that fetches use: 2.9 M
    /// instructions, a seventh of the bootstrap's start. Nothing here looks an algorithm up in those tables: this code
    /// fetches from OpenSSL's providers by name, and so do OpenSSL 3's TLS and certificate checks. Call it first, before
    /// libcurl or OpenSSL is used; once they have started it changes nothing.
    public static func leaveLegacyNameTablesEmpty() {
        _ = OPENSSL_init_crypto(UInt64(OPENSSL_INIT_NO_ADD_ALL_CIPHERS), nil)
    }
}
