// ChallengeFlows: work in progress.
