from astra_memory.cli.app import main

main()
