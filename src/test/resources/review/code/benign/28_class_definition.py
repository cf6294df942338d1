class Cohort:
    def __init__(self, frame, key):
        self.frame = frame
        self.key = key

    def retention(self):
        first = self.frame.groupby(self.key)["month"].min()
        return self.frame.join(first, on=self.key, rsuffix="_first")

c = Cohort(df, "customer_id")
c.retention().head()
