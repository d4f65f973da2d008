#!/usr/bin/env python3
"""Verifies WebAuthn responses with Yubico's python-fido2 (PyPI `fido2`), an implementation independent of this
package, so that the Swift verifier's verdicts can be compared with another's case by case.

Usage: fido2_verify.py CASES.json

CASES.json is a JSON array; each case is an object:
  name                      a label, echoed back
  ceremony                  "create" (registration) or "get" (assertion)
  rpId, rpName              the relying party
  origins                   the origins allowed, compared exactly
  challenge                 the challenge issued (base64url)
  requireUserVerification   true: the UV flag must be set
  response                  the RegistrationResponseJSON / AuthenticationResponseJSON object
  create only:
    attestation             "none" (any format; a packed statement is still verified) or "direct" (a packed
                            statement with x5c is required)
    registeredCredentialIds credential IDs already taken (base64url)
  get only:
    credential              the stored credential: id, publicKey (COSE_Key), aaguid (base64url), signCount,
                            userHandle (base64url)

Prints one JSON line per case, in order: {"name": ..., "accepted": true|false, "reason": ...}.

fido2's Fido2Server checks the client data (type, origin, challenge), the RP ID hash, UP and UV, and the
assertion's signature. What it leaves to its caller is done here, with fido2's own parts where it has them: the
attestation statement (fido2.attestation's `none` and `packed` verifiers, run for every registration), a new
credential ID not already taken, the assertion's credential and user handle, and the signature counter (both zero, or
the new one greater).
"""

import json
import struct
import sys

from fido2.attestation import Attestation, AttestationType
from fido2.server import Fido2Server
from fido2.utils import websafe_decode
from fido2.webauthn import (
    AttestedCredentialData,
    AuthenticationResponse,
    RegistrationResponse,
    UserVerificationRequirement,
)


def server_for(case, verify_attestation=None):
    origins = set(case["origins"])
    return Fido2Server(
        {"id": case["rpId"], "name": case.get("rpName", case["rpId"])},
        # "direct" makes register_complete call verify_attestation; which statements pass is decided there.
        attestation="direct",
        verify_origin=lambda origin: origin in origins,
        verify_attestation=verify_attestation,
    )


def state_for(server, case):
    requirement = (
        UserVerificationRequirement.REQUIRED
        if case.get("requireUserVerification", True)
        else UserVerificationRequirement.PREFERRED
    )
    return server._make_internal_state(websafe_decode(case["challenge"]), requirement)


def verify_create(case):
    def verify_attestation(attestation_object, client_data_hash):
        verifier = Attestation.for_type(attestation_object.fmt)()
        result = verifier.verify(attestation_object.att_stmt, attestation_object.auth_data, client_data_hash)
        if case.get("attestation", "none") == "direct" and result.attestation_type != AttestationType.BASIC:
            raise ValueError(f"direct attestation requires a certificate; got {result.attestation_type.name}")

    server = server_for(case, verify_attestation)
    auth_data = server.register_complete(state_for(server, case), case["response"])
    credential_id = auth_data.credential_data.credential_id
    taken = {websafe_decode(value) for value in case.get("registeredCredentialIds", [])}
    if credential_id in taken:
        raise ValueError("credential ID already registered")
    return "registered"


def verify_get(case):
    stored = case["credential"]
    credential_id = websafe_decode(stored["id"])
    attested = AttestedCredentialData(
        websafe_decode(stored["aaguid"])
        + struct.pack(">H", len(credential_id))
        + credential_id
        + websafe_decode(stored["publicKey"])
    )
    server = server_for(case)
    server.authenticate_complete(state_for(server, case), [attested], case["response"])

    response = AuthenticationResponse.from_dict(case["response"])
    user_handle = response.response.user_handle
    if user_handle is not None and user_handle != websafe_decode(stored["userHandle"]):
        raise ValueError("user handle does not match the credential's")
    counter = response.response.authenticator_data.counter
    previous = stored["signCount"]
    if (counter != 0 or previous != 0) and counter <= previous:
        raise ValueError(f"signature counter {counter} does not exceed the stored {previous}")
    return "signed in"


def main():
    with open(sys.argv[1], encoding="utf-8") as source:
        cases = json.load(source)
    for case in cases:
        try:
            if case["ceremony"] == "create":
                reason = verify_create(case)
            else:
                reason = verify_get(case)
            verdict = {"name": case["name"], "accepted": True, "reason": reason}
        except Exception as error:  # every refusal, whatever fido2 raises, is a verdict
            verdict = {"name": case["name"], "accepted": False, "reason": f"{type(error).__name__}: {error}"}
        print(json.dumps(verdict), flush=True)


if __name__ == "__main__":
    main()
