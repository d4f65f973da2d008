print("cognito-local: work in progress")
