# expect: env_access
%env
