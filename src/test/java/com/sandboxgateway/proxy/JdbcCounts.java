package com.sandboxgateway.proxy;

import java.lang.reflect.InvocationHandler;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.Queue;
import java.util.Set;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicInteger;

import javax.sql.DataSource;

import org.postgresql.core.BaseConnection;
import org.postgresql.core.TransactionState;
import org.springframework.beans.factory.config.BeanPostProcessor;

/**
 * Wraps a {@link DataSource} so every statement executed and every commit that reaches the database (explicit, auto,
 * or inside a statement) is counted.
 */
final class JdbcCounts {

    /** Statements and commits seen by the gateway's connections, with the SQL of each, in order. */
    record Counts(int statements, int commits, List<String> sql) {
    }

    private static final Set<String> EXECUTES = Set.of("execute", "executeQuery", "executeUpdate", "executeLargeUpdate",
            "executeBatch", "executeLargeBatch");

    private final AtomicInteger statements = new AtomicInteger();
    private final AtomicInteger commits = new AtomicInteger();
    private final Queue<String> sql = new ConcurrentLinkedQueue<>();

    void clear() {
        statements.set(0);
        commits.set(0);
        sql.clear();
    }

    Counts counts() {
        return new Counts(statements.get(), commits.get(), List.copyOf(sql));
    }

    /** Wraps the application's data sources, so their statements are counted here (a test configuration's bean). */
    BeanPostProcessor counting() {
        return new BeanPostProcessor() {
            @Override
            public Object postProcessAfterInitialization(Object bean, String name) {
                return bean instanceof DataSource dataSource ? wrap(dataSource) : bean;
            }
        };
    }

    private DataSource wrap(DataSource dataSource) {
        return proxy(DataSource.class, dataSource, (method, args, call) ->
                call.proceed() instanceof Connection connection ? connection(connection) : call.result());
    }

    private Connection connection(Connection connection) {
        return proxy(Connection.class, connection, (method, args, call) -> {
            // pgjdbc sends a commit only for a transaction still open: one that ended inside a statement has none.
            if (method.getName().equals("commit") && !endedInAStatement(connection)) {
                commits.incrementAndGet();
                sql.add("COMMIT");
            }
            Object result = call.proceed();
            if (result instanceof PreparedStatement prepared && method.getName().equals("prepareStatement")) {
                return statement(PreparedStatement.class, prepared, connection, (String) args[0]);
            }
            if (result instanceof Statement plain && method.getName().equals("createStatement")) {
                return statement(Statement.class, plain, connection, null);
            }
            return result;
        });
    }

    private <S extends Statement> S statement(Class<S> type, S statement, Connection connection, String prepared) {
        return proxy(type, statement, (method, args, call) -> {
            if (EXECUTES.contains(method.getName())) {
                statements.incrementAndGet();
                String text = (prepared != null ? prepared : String.valueOf(args[0])).replaceAll("\\s+", " ").strip();
                sql.add(text);
                if (text.endsWith("; COMMIT")) {
                    commits.incrementAndGet();
                }
                // Outside a transaction a statement that writes commits by itself; a lone read commits nothing.
                if (connection.getAutoCommit() && !text.startsWith("SELECT")) {
                    commits.incrementAndGet();
                }
            }
            return call.proceed();
        });
    }

    private static boolean endedInAStatement(Connection connection) throws SQLException {
        return connection.isWrapperFor(BaseConnection.class)
                && connection.unwrap(BaseConnection.class).getTransactionState() == TransactionState.IDLE;
    }

    /** A call of a wrapped JDBC object: {@link #proceed()} makes it (once), {@link #result()} is what it returned. */
    private interface Call {

        Object proceed() throws Throwable;

        Object result();
    }

    private interface Around {

        Object invoke(Method method, Object[] args, Call call) throws Throwable;
    }

    private static <T> T proxy(Class<T> type, T target, Around around) {
        InvocationHandler handler = (self, method, args) -> {
            Object[] result = new Object[1];
            Call call = new Call() {
                @Override
                public Object proceed() throws Throwable {
                    try {
                        result[0] = method.invoke(target, args);
                        return result[0];
                    } catch (InvocationTargetException e) {
                        throw e.getCause();
                    }
                }

                @Override
                public Object result() {
                    return result[0];
                }
            };
            return around.invoke(method, args, call);
        };
        return type.cast(Proxy.newProxyInstance(type.getClassLoader(), new Class<?>[] {type}, handler));
    }
}
