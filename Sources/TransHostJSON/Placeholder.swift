// TransHostJSON
