import numpy as np
values = df["amount"].to_numpy()
print("mean", np.mean(values), "median", np.median(values))
q1, q3 = np.percentile(values, [25, 75])
iqr = q3 - q1
outliers = values[(values < q1 - 1.5 * iqr) | (values > q3 + 1.5 * iqr)]
print(len(outliers), "outliers")
