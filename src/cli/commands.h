#pragma once

namespace ember::cli {

/// `ember server [--host H] [--port P]`: the Spark Connect server, until SIGINT or SIGTERM.
/// `argv` holds the arguments after "server".
int run_server(int argc, char** argv);

/// `ember submit app.py [args...]`: runs a PySpark script against a server started in this
/// process, and exits with the script's exit status. `argv` holds the arguments after
/// "submit".
int run_submit(int argc, char** argv);

}  // namespace ember::cli
