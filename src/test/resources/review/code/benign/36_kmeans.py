from sklearn.cluster import KMeans
from sklearn.preprocessing import StandardScaler
features = StandardScaler().fit_transform(df[["recency", "frequency", "monetary"]])
km = KMeans(n_clusters=4, n_init=10, random_state=0).fit(features)
df["segment"] = km.labels_
df.groupby("segment")[["recency", "frequency", "monetary"]].mean()
