from sklearn.linear_model import LinearRegression
from sklearn.model_selection import train_test_split

X = df[["ad_spend", "visits"]]
y = df["revenue"]
X_train, X_test, y_train, y_test = train_test_split(X, y, test_size=0.2, random_state=42)
model = LinearRegression().fit(X_train, y_train)
print("R^2:", model.score(X_test, y_test))
