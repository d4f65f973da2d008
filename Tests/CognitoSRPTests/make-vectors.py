#!/usr/bin/env python3
"""Prints the values pycognito computes for one fixed USER_SRP_AUTH exchange, for PycognitoVectorTests.swift.

pycognito is a client only, so the server's B and S are computed here from its own helpers (hex_hash, pad_hex,
its k) by the SRP-6a formulas. The client's random `a` is fixed by overwriting it after construction, and the
module's clock is fixed so that process_challenge signs the timestamp below.

    pip install pycognito && python3 Tests/CognitoSRPTests/make-vectors.py
"""
import base64
import datetime

from pycognito import aws_srp

POOL_ID = "eu-west-1_Ab12Cd34E"
USER_ID = "7f3c2a10-user-for-srp"
PASSWORD = "Correct horse 7!"
# Starts with f, so pad_hex puts "00" in front of it before hashing.
SALT_HEX = "f0e1d2c3b4a5968778695a4b3c2d1e0f"
A_BYTES = bytes((7 * i + 1) % 256 for i in range(128))
B_BYTES = bytes((13 * i + 200) % 256 for i in range(128))
SECRET_BLOCK = bytes((31 * i + 5) % 256 for i in range(48))
# A day of the month below 10: the timestamp reads "Nov 3", not "Nov 03".
NOW = datetime.datetime(2026, 11, 3, 7, 4, 5)


class FixedClock(datetime.datetime):
    @classmethod
    def utcnow(cls):
        return NOW


class FixedDatetimeModule:
    datetime = FixedClock


aws_srp.datetime = FixedDatetimeModule

srp = aws_srp.AWSSRP(USER_ID, PASSWORD, POOL_ID, "client-id", client=object())
big_n, g, k = srp.big_n, srp.val_g, srp.val_k
srp.small_a_value = int.from_bytes(A_BYTES, "big") % big_n
srp.large_a_value = srp.calculate_a()
big_a = srp.large_a_value

pool_name = POOL_ID.split("_")[1]
identity_hash = aws_srp.hash_sha256(f"{pool_name}{USER_ID}:{PASSWORD}".encode("utf-8"))
x = aws_srp.hex_to_long(aws_srp.hex_hash(aws_srp.pad_hex(SALT_HEX) + identity_hash))
v = pow(g, x, big_n)

b = int.from_bytes(B_BYTES, "big") % big_n
big_b = (k * v + pow(g, b, big_n)) % big_n
u = aws_srp.calculate_u(big_a, big_b)
server_s = pow(big_a * pow(v, u, big_n), b, big_n)

key = srp.get_password_authentication_key(USER_ID, PASSWORD, big_b, SALT_HEX)
client_s = pow(big_b - k * pow(g, x, big_n), srp.small_a_value + u * x, big_n)
assert client_s == server_s, "client and server shared secrets differ"
assert key == aws_srp.compute_hkdf(bytes.fromhex(aws_srp.pad_hex(server_s)), bytes.fromhex(aws_srp.pad_hex(u)))

challenge = {
    "USER_ID_FOR_SRP": USER_ID,
    "SALT": SALT_HEX,
    "SRP_B": aws_srp.long_to_hex(big_b),
    "SECRET_BLOCK": base64.standard_b64encode(SECRET_BLOCK).decode("ascii"),
}
response = srp.process_challenge(challenge, {"USERNAME": USER_ID})

print("a       ", A_BYTES.hex())
print("b       ", B_BYTES.hex())
print("secret  ", challenge["SECRET_BLOCK"])
print("k       ", f"{k:064x}")
print("x       ", f"{x:064x}")
print("v       ", f"{v:0768x}")
print("A       ", srp.get_auth_params()["SRP_A"])
print("B       ", challenge["SRP_B"])
print("u       ", f"{u:064x}")
print("S       ", f"{server_s:x}")
print("key     ", key.hex())
print("time    ", response["TIMESTAMP"])
print("unix    ", int(NOW.replace(tzinfo=datetime.timezone.utc).timestamp()))
print("sig     ", response["PASSWORD_CLAIM_SIGNATURE"])
