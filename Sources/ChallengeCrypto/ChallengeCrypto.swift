// ChallengeCrypto: work in progress.
