print("error-explain: not yet")
