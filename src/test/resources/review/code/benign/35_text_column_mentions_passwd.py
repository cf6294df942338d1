# Count support tickets about password resets
mask = df["subject"].str.contains("password reset", case=False, na=False)
print(mask.sum(), "tickets about password resets")
print("Do not store /etc-style paths in the ticket text.")
