from faultline.launcher import main

main()
