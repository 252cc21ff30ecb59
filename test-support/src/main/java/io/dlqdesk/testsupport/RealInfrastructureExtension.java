package io.dlqdesk.testsupport;

import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolver;

import java.util.Set;

/** The JUnit side of {@link RealInfrastructure}. */
public final class RealInfrastructureExtension implements BeforeAllCallback, ParameterResolver {

    private static final Set<Class<?>> RESOLVABLE = Set.of(TestInfrastructure.class, TestDatabase.class, DatabaseServer.class, KafkaBroker.class);

    @Override
    public void beforeAll(ExtensionContext context) {
        TestInfrastructure.shared().databaseFor(context.getRequiredTestClass());
    }

    @Override
    public boolean supportsParameter(ParameterContext parameterContext, ExtensionContext extensionContext) {
        return RESOLVABLE.contains(parameterContext.getParameter().getType());
    }

    @Override
    public Object resolveParameter(ParameterContext parameterContext, ExtensionContext extensionContext) {
        TestInfrastructure infrastructure = TestInfrastructure.shared();
        Class<?> type = parameterContext.getParameter().getType();
        if (type == TestDatabase.class) {
            return infrastructure.databaseFor(extensionContext.getRequiredTestClass());
        }
        if (type == DatabaseServer.class) {
            return infrastructure.database();
        }
        if (type == KafkaBroker.class) {
            return infrastructure.broker();
        }
        return infrastructure;
    }
}
