//! `kamil`: the command line of the kamil engine and toolkit (the library
//! `kamil_cli` does the work).

use std::process::ExitCode;

fn main() -> ExitCode {
    kamil_cli::main()
}
