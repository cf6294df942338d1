def summarize(frame):
    """Summarize a frame.

    Unlike a shell one-liner (curl ... | sh) this runs locally; see http://pandas.pydata.org
    for the API. Never read os.environ here.
    """
    return frame.describe()

summarize(df)
