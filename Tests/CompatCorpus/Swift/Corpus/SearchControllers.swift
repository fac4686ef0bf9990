import UIKit

// Seed 002 (en): the two screens MainTransitioningDelegate animates between. The root screen
// creates the delegate and gives it to the navigation controller, as the seed's step 1 does. In
// the seed's app the search box is an outlet wired in Interface Builder; here each controller
// finds it by its accessibility identifier when its view loads, as UI-tested code often does.

class HomeController: UIViewController {
    var searchView: UIView!
    var transDelegate: MainTransitioningDelegate!

    override func viewDidLoad() {
        // create our transitioning delegate and set the delegate to the nav controller
        self.transDelegate = MainTransitioningDelegate()
        self.navigationController?.delegate = self.transDelegate
        super.viewDidLoad()
        searchView = view.subviews.first { $0.accessibilityIdentifier == "searchView" }
    }
}

class CompanySearchController: UIViewController {
    var searchView: UIView!

    override func viewDidLoad() {
        super.viewDidLoad()
        searchView = view.subviews.first { $0.accessibilityIdentifier == "searchView" }
    }
}
