// TransHostPluginHost
