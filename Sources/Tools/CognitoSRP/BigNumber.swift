import COpenSSL

/// An OpenSSL `BIGNUM` that lives only inside one computation: made from bytes, turned back into bytes, and
/// cleared when freed. Public types hold plain bytes, so they stay value types and `Sendable`.
final class BigNumber {
    let pointer: OpaquePointer

    init() throws(SRPError) {
        guard let pointer = BN_new() else { throw .bigNumberFailure(operation: "allocate a big number") }
        self.pointer = pointer
    }

    /// The unsigned big-endian integer in `bytes`.
    convenience init(bytes: [UInt8]) throws(SRPError) {
        try self.init()
        let result = bytes.withUnsafeBufferPointer { BN_bin2bn($0.baseAddress, Int32($0.count), pointer) }
        guard result != nil else { throw .bigNumberFailure(operation: "read a big number from bytes") }
    }

    convenience init(word: UInt) throws(SRPError) {
        try self.init()
        guard BN_set_word(pointer, word) == 1 else { throw .bigNumberFailure(operation: "set a big number") }
    }

    deinit {
        BN_clear_free(pointer)
    }

    /// Marks the number as secret, so OpenSSL exponentiates with it in constant time.
    func markSecret() {
        BN_set_flags(pointer, BN_FLG_CONSTTIME)
    }

    var isZero: Bool { BN_is_zero(pointer) == 1 }

    /// The minimal unsigned big-endian bytes; zero is no bytes.
    var bytes: [UInt8] {
        let count = (Int(BN_num_bits(pointer)) + 7) / 8
        var bytes = [UInt8](repeating: 0, count: count)
        _ = bytes.withUnsafeMutableBufferPointer { BN_bn2bin(pointer, $0.baseAddress) }
        return bytes
    }

    /// The bytes left-padded with zeros to `width` (which must be at least the minimal length).
    func bytes(width: Int) -> [UInt8] {
        let minimal = bytes
        precondition(minimal.count <= width, "a number of \(minimal.count) bytes does not fit in \(width)")
        return [UInt8](repeating: 0, count: width - minimal.count) + minimal
    }
}

/// A scratch context for one computation's big-number arithmetic; every operation is modulo a given modulus.
struct BigNumberArithmetic: ~Copyable {
    private let context: OpaquePointer

    init() throws(SRPError) {
        guard let context = BN_CTX_new() else { throw .bigNumberFailure(operation: "allocate a big-number context") }
        self.context = context
    }

    deinit {
        BN_CTX_free(context)
    }

    /// `base ^ exponent mod modulus`.
    func power(_ base: BigNumber, _ exponent: BigNumber, modulo modulus: BigNumber) throws(SRPError) -> BigNumber {
        try apply("exponentiate") { BN_mod_exp($0, base.pointer, exponent.pointer, modulus.pointer, context) }
    }

    /// `(lhs · rhs) mod modulus`.
    func multiply(_ lhs: BigNumber, _ rhs: BigNumber, modulo modulus: BigNumber) throws(SRPError) -> BigNumber {
        try apply("multiply") { BN_mod_mul($0, lhs.pointer, rhs.pointer, modulus.pointer, context) }
    }

    /// `(lhs + rhs) mod modulus`.
    func add(_ lhs: BigNumber, _ rhs: BigNumber, modulo modulus: BigNumber) throws(SRPError) -> BigNumber {
        try apply("add") { BN_mod_add($0, lhs.pointer, rhs.pointer, modulus.pointer, context) }
    }

    /// `(lhs − rhs) mod modulus`, never negative.
    func subtract(_ lhs: BigNumber, _ rhs: BigNumber, modulo modulus: BigNumber) throws(SRPError) -> BigNumber {
        try apply("subtract") { BN_mod_sub($0, lhs.pointer, rhs.pointer, modulus.pointer, context) }
    }

    /// `value mod modulus`, never negative.
    func reduce(_ value: BigNumber, modulo modulus: BigNumber) throws(SRPError) -> BigNumber {
        try apply("reduce") { BN_nnmod($0, value.pointer, modulus.pointer, context) }
    }

    /// The exact `lhs · rhs + addend`, not reduced.
    func multiplyAdd(_ lhs: BigNumber, _ rhs: BigNumber, plus addend: BigNumber) throws(SRPError) -> BigNumber {
        let product = try apply("multiply") { BN_mul($0, lhs.pointer, rhs.pointer, context) }
        return try apply("add") { BN_add($0, product.pointer, addend.pointer) }
    }

    private func apply(_ operation: String, _ body: (OpaquePointer) -> Int32) throws(SRPError) -> BigNumber {
        let result = try BigNumber()
        guard body(result.pointer) == 1 else { throw .bigNumberFailure(operation: operation) }
        return result
    }
}
